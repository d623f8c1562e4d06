import ArgumentParser
import Foundation
import TallyCore
import TallyImport
import TallyStore
import TallyWire

extension ImportFormat: ExpressibleByArgument {
  /// `loop` is short for `loop-sqlite`, Loop's backup file.
  public init?(argument: String) {
    self.init(name: argument)
  }

  public static var allValueStrings: [String] {
    ["loop"] + allCases.filter { $0 != .loopSQLite }.map(\.rawValue)
  }
}

/// `tally import PATH [--format FORMAT] [--dry-run]`
struct ImportCommand: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Bring in your history from another tracker or journal, or a Tally export.",
    discussion: """
      Reads Loop Habit Tracker (backup .db of any version, CSV .zip), Beaver Habit Tracker, \
      HabitBull, Rewire, Tickmate, Streaks, HabitKit, Table Habit, Habitica, Daylio, Day One (JSON or .zip) and Day One \
      Classic (.dayone folder), and Tally's CSV; the kind of file is told from what it holds, \
      not its name. Habits are merged into yours: a habit with the same name (or, in Tally's \
      CSV, id) gets the file's days that it has no entry for, and any other becomes a new \
      habit. A day that already has an entry is never changed: it is reported as a conflict. \
      Journal text is added after what a day already has, unless it is there already. So \
      importing a file twice adds nothing the second time. Tally's JSON export restores \
      everything (habits, journal, chat, shows, settings) into a user who has none yet. The \
      whole file is checked before anything is written, in one transaction; a file with an \
      error changes nothing. See docs/import-export.md.
      """)

  @OptionGroup var global: GlobalOptions

  @Argument(help: ArgumentHelp("The file (or Day One Classic folder) to read.", valueName: "path"))
  var path: String

  @Option(help: "\(ImportFormat.allValueStrings.joined(separator: ", ")). Default: told from the file's contents.")
  var format: ImportFormat?

  @Flag(help: "Print what would change, and change nothing.")
  var dryRun = false

  func run(in context: CommandContext) async throws {
    var isFolder: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
    var data: Data?
    if isFolder.boolValue && !DayOneClassicReader.isJournalFolder(path) {
      throw CommandFailure(
        "The file \(path) could not be read: it is a folder, and not a Day One Classic journal (it holds no .doentry files).",
        exitCode: CommandFailure.inputOutput)
    }
    if !isFolder.boolValue {
      do {
        data = try Data(contentsOf: URL(fileURLWithPath: path))
      } catch {
        let reason = exists ? "it is not a readable file" : "there is no such file"
        throw CommandFailure(
          "The file \(path) could not be read: \(reason).", exitCode: CommandFailure.inputOutput)
      }
    }
    var format = self.format
    if format == nil {
      do throws(ImportError) {
        format = try Importer.detect(path: path, data: data)
      } catch {
        let what = (error.location.map { "\($0): " } ?? "") + error.reason
        let names = ImportFormat.allValueStrings.joined(separator: ", ")
        throw CommandFailure("Tally cannot tell what kind of file \(path) is (\(what)); name it with --format \(names).")
      }
    }
    guard let format else { return }
    if format == .json {
      try await importJSON(data ?? Data(), context: context)
    } else {
      try await importHistory(format, data: data ?? Data(), context: context)
    }
  }

  func importHistory(_ format: ImportFormat, data: Data, context: CommandContext) async throws {
    let session = try await SessionOpener(options: global, context: context).open()
    let today = try session.today
    let progress = ProgressLine(stream: context.standardError)
    let handler: ProgressHandler? = progress.map { line in { @Sendable in line.update($0) } }
    let timeZone = try session.calendar.timeZone
    let history: ImportedHistory
    do {
      history = try Importer.read(format, path: path, data: data, today: today, timeZone: timeZone, progress: handler)
    } catch {
      progress?.finish()
      throw CommandFailure("\(error.description). Nothing was imported.")
    }
    progress?.finish()
    let summary: ImportSummary
    do {
      summary = try await ImportPlanner.run(
        history, store: session.store, user: session.user.id, today: today, dryRun: dryRun)
    } catch let error as ImportError {
      throw CommandFailure("\(error.description). Nothing was imported.")
    }
    for line in ImportCommand.lines(summary, user: session.user.name) {
      session.output.line(line)
    }
  }

  /// The summary a person reads: counts first, then each warning and conflict on its own line.
  static func lines(_ summary: ImportSummary, user: String) -> [String] {
    let counts = [
      Sentence.count(summary.habits, "habit") + " (\(summary.newHabits) new, \(summary.matchedHabits) already here)",
      Sentence.count(summary.entries, "entry", "entries") + " added",
      Sentence.count(summary.notes, "note"),
      "\(summary.unchanged) unchanged",
      Sentence.count(summary.conflicts, "conflict"),
    ]
    let journalDays = summary.journalAdded + summary.journalMerged + summary.journalUnchanged
    let journal =
      journalDays == 0
      ? [] : [
        Sentence.count(journalDays, "journal day")
          + " (\(summary.journalAdded) new, \(summary.journalMerged) added to, \(summary.journalUnchanged) unchanged)"
      ]
    let verb = summary.dryRun ? "Would import" : "Imported"
    let all = counts + journal + [Sentence.count(summary.warnings.count, "warning")]
    var lines = ["\(verb) the \(summary.format.title) into '\(user)': \(Sentence.list(all))."]
    if !summary.habitList.isEmpty {
      lines.append("Habits:")
      lines += summary.habitList.map { habit in
        let days = Sentence.count(habit.entries, "day") + (habit.notes > 0 ? ", \(Sentence.count(habit.notes, "note"))" : "")
        return "  '\(habit.name)' (\(habit.isNew ? "new" : "already here")): \(days) \(summary.dryRun ? "to add" : "added")"
      }
    }
    if !summary.warnings.isEmpty {
      lines.append("Warnings (what is not carried, or not exactly):")
      lines += summary.warnings.map { "  \($0.description)" }
    }
    if summary.conflicts > 0 {
      lines.append("Conflicts, kept as they were:")
      lines += summary.conflictDays.map { conflict in
        let stored = conflict.stored.map { "\($0.rawValue) here" } ?? "written meanwhile"
        return "  '\(conflict.habit)' \(conflict.day): \(stored), \(conflict.imported.rawValue) in the file"
      }
      if summary.conflicts > summary.conflictDays.count {
        lines.append("  and \(summary.conflicts - summary.conflictDays.count) more")
      }
    }
    if summary.dryRun { lines.append("Nothing was written (--dry-run).") }
    return lines
  }

  func importJSON(_ data: Data, context: CommandContext) async throws {
    guard (try? JSONSerialization.jsonObject(with: data)) != nil else {
      throw CommandFailure("The file \(path) is not a Tally export: it is not JSON.")
    }
    let document: ExportDocument
    do {
      document = try JSONOutput.decoder().decode(ExportDocument.self, from: data)
    } catch let error as DecodingError {
      throw CommandFailure("The file \(path) is not a Tally export: \(DecodingErrorText.describe(error)).")
    } catch {
      throw CommandFailure("The file \(path) is not a Tally export: it is not JSON.")
    }
    let exported: User
    let snapshot: UserSnapshot
    do {
      (exported, snapshot) = try document.restorable()
    } catch let error as TallyCore.ValidationError {
      throw CommandFailure("The file \(path) breaks a rule: \(Sentence.rule(error))")
    } catch let error as StoreError {
      throw CommandFailure("The file \(path) cannot be imported: \(error)")
    }
    let opener = SessionOpener(options: global, context: context)
    let (database, store) = try opener.openStore()
    let counts =
      "\(Sentence.count(snapshot.habits.count, "habit")), "
      + "\(Sentence.count(snapshot.habits.reduce(0) { $0 + $1.entries.count }, "entry", "entries")), "
      + "\(Sentence.count(snapshot.journal.count, "journal entry", "journal entries")), "
      + "\(Sentence.count(snapshot.chat.count, "chat message")), "
      + "\(Sentence.count(snapshot.shows.count, "show")), "
      + "\(Sentence.count(snapshot.episodes.count, "episode")), "
      + "\(Sentence.count(snapshot.prices.count, "price")), "
      + "\(Sentence.count(snapshot.pauses.count, "pause"))."
    // One store call, one transaction: an import that fails or is killed half-way leaves
    // nothing behind.
    if try await store.users().isEmpty {
      let name = global.user ?? exported.name
      if dryRun {
        context.standardOutput.line("Would import into a new user '\(name)': \(counts)")
        context.standardOutput.line("Nothing was written (--dry-run).")
        return
      }
      let user = try await store.restore(snapshot, into: .newUser(id: exported.id, name: name))
      context.standardOutput.line("Imported into '\(user.name)': \(counts)")
    } else {
      let target = try await opener.resolveUser(in: store, database: database)
      try await ImportCommand.checkEmpty(target, in: store)
      if dryRun {
        context.standardOutput.line("Would import into '\(target.name)': \(counts)")
        context.standardOutput.line("Nothing was written (--dry-run).")
        return
      }
      let user = try await store.restore(snapshot, into: .emptyUser(target.id))
      context.standardOutput.line("Imported into '\(user.name)': \(counts)")
    }
  }

  /// A JSON import never merges: it fills a user who has nothing yet. The store refuses such
  /// a user too, inside its transaction; looking first gives a message that counts what the
  /// user holds.
  static func checkEmpty(_ user: User, in store: any Store) async throws {
    let habits = try await store.habits(for: user.id, includingArchived: true).count
    let journal = try await store.journalEntries(in: Day.allTime, for: user.id).count
    let chat = try await store.chatMessages(in: Day.allTime, for: user.id).count
    let shows = try await store.shows(for: user.id).count
    let held = [
      habits > 0 ? Sentence.count(habits, "habit") : nil,
      journal > 0 ? Sentence.count(journal, "journal entry", "journal entries") : nil,
      chat > 0 ? Sentence.count(chat, "chat message") : nil,
      shows > 0 ? Sentence.count(shows, "show") : nil,
    ].compactMap { $0 }
    guard held.isEmpty else {
      throw CommandFailure(
        "The user '\(user.name)' already has \(Sentence.list(held)); a JSON import fills an empty "
          + "user only, so import into a new database (--db) or another user.")
    }
  }
}

/// "Reading repetitions 30000/65385" rewritten in place on a terminal's standard error; no
/// output at all when standard error is a pipe or a file.
final class ProgressLine: Sendable {
  let stream: TextStream

  init?(stream: TextStream) {
    guard stream.isTerminal else { return nil }
    self.stream = stream
  }

  @Sendable func update(_ progress: ImportProgress) {
    stream.write("\r\(progress.stage) \(progress.done)/\(progress.total)\u{1B}[K")
  }

  func finish() {
    stream.write("\r\u{1B}[K")
  }
}
