import ArgumentParser

/// `tally show …`: the shows whose episodes fill the streaming calendar.
struct ShowCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "show",
    abstract: "Add, list, search, refresh and delete the shows you follow.",
    discussion: "SHOW is a show's title (any case), its id, or the start of its id.",
    subcommands: [ShowList.self, ShowAdd.self, ShowSearch.self, ShowRefresh.self, ShowDelete.self])
}
