import ArgumentParser

/// `tally`: configuration only. Each subcommand lives in its own file.
public struct Tally: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "tally",
    abstract: "Track habits, keep a journal and see what your shows air, from a terminal.",
    discussion: """
      Every listing command takes --json and then prints only JSON on standard output. \
      Errors are one sentence on standard error with a non-zero exit status; nothing changes \
      when a command fails. See docs/cli.md for every command and JSON shape.
      """,
    version: TallyVersion.text,
    subcommands: [
      ServeCommand.self,
      HealthcheckCommand.self,
      CopyToPostgresCommand.self,
      RemoteCommand.self,
      SyncCommand.self,
      UserCommand.self,
      SettingsCommand.self,
      HabitCommand.self,
      MarkCommand.self,
      PauseCommand.self,
      ResumeCommand.self,
      StatsCommand.self,
      GridCommand.self,
      JournalCommand.self,
      ChatCommand.self,
      TodayCommand.self,
      CalendarCommand.self,
      ShowCommand.self,
      EpisodesCommand.self,
      PricesCommand.self,
      RemindersCommand.self,
      ExportCommand.self,
      ImportCommand.self,
      BackupCommand.self,
    ])

  /// Accepted before the subcommand too (`tally --db PATH habit list`), as SPEC 10 writes it;
  /// each subcommand reads the same group.
  @OptionGroup var global: GlobalOptions

  public init() {}
}
