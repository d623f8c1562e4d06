import ArgumentParser
import Foundation
import TallyCore
import TallyStore
import TallyWire

/// `tally import PATH [--format json|csv]`
struct ImportCommand: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Read back an export: JSON into an empty user, or CSV habit entries into your habits.",
    discussion: """
      JSON restores everything 'tally export' wrote (habits, entries, journal, chat, shows, \
      episodes, prices and settings) into a user who has no habits, journal, chat or shows yet; \
      into a database with no users it creates the exported user, ids included. CSV sets the \
      days it lists (habitId,habitName,day,status,note) on the habits they name, by id or exact \
      name, adding habits it does not find. The whole file is checked before anything is \
      written, and a JSON import is written in one transaction: an import that fails or is \
      interrupted changes nothing.
      """)

  @OptionGroup var global: GlobalOptions

  @Argument(help: ArgumentHelp("The file to read.", valueName: "path"))
  var path: String

  @Option(help: "json or csv. Default: from the file's extension, else json.")
  var format: TransferFormat?

  func run(in context: CommandContext) async throws {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      let reason = FileManager.default.fileExists(atPath: path) ? "it is not a readable file" : "there is no such file"
      throw CommandFailure(
        "The file \(path) could not be read: \(reason).", exitCode: CommandFailure.inputOutput)
    }
    switch TransferFormat.resolve(format, path: path) {
    case .json: try await importJSON(data, context: context)
    case .csv: try await importCSV(data, context: context)
    }
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
    // One store call, one transaction: an import that fails or is killed half-way leaves
    // nothing behind.
    let user: User
    if try await store.users().isEmpty {
      user = try await store.restore(
        snapshot, into: .newUser(id: exported.id, name: global.user ?? exported.name))
    } else {
      let target = try await opener.resolveUser(in: store, database: database)
      try await ImportCommand.checkEmpty(target, in: store)
      user = try await store.restore(snapshot, into: .emptyUser(target.id))
    }
    let entries = snapshot.habits.reduce(0) { $0 + $1.entries.count }
    context.standardOutput.line(
      "Imported into '\(user.name)': \(Sentence.count(snapshot.habits.count, "habit")), "
        + "\(Sentence.count(entries, "entry", "entries")), "
        + "\(Sentence.count(snapshot.journal.count, "journal entry", "journal entries")), "
        + "\(Sentence.count(snapshot.chat.count, "chat message")), "
        + "\(Sentence.count(snapshot.shows.count, "show")), "
        + "\(Sentence.count(snapshot.episodes.count, "episode")), "
        + "\(Sentence.count(snapshot.prices.count, "price")).")
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

  func importCSV(_ data: Data, context: CommandContext) async throws {
    guard let text = String(data: data, encoding: .utf8) else {
      throw CommandFailure("The file \(path) is not UTF-8 text.")
    }
    let rows = try EntriesCSV.rows(text)
    let session = try await SessionOpener(options: global, context: context).open()
    let today = try session.today
    var habits = try await session.store.habits(for: session.user.id, includingArchived: true)
    // Every row is resolved and checked before the first write.
    var planned: [(habit: Habit, isNew: Bool, rows: [EntriesCSV.Row])] = []
    var nextOrder = (habits.map(\.sortOrder).max() ?? -1) + 1
    for row in rows {
      try DayMark.checkMarkable(row.day, today: today)
      // By id when the user has it, else by exact name, else a new daily habit.
      let name = row.habitName.trimmingCharacters(in: .whitespacesAndNewlines)
      let known =
        row.habitID.flatMap { id in habits.first { $0.id == id } }
        ?? habits.first { $0.name == name }
      let habit: Habit
      if let known {
        habit = known
      } else {
        habit = try Habit(id: UUID(), name: row.habitName, createdDay: row.day, sortOrder: nextOrder)
        nextOrder += 1
        habits.append(habit)
        planned.append((habit, true, []))
      }
      if let index = planned.firstIndex(where: { $0.habit.id == habit.id }) {
        planned[index].rows.append(row)
      } else {
        planned.append((habit, false, [row]))
      }
    }
    for index in planned.indices where planned[index].isNew {
      let first = planned[index].rows.map(\.day).min()!
      planned[index].habit.createdDay = first
    }
    var written = 0
    for (habit, isNew, rows) in planned {
      if isNew { _ = try await session.store.createHabit(habit, for: session.user.id) }
      // One transaction per (status, note), not per row: a long history is a few writes.
      var groups: [String: (mark: DayMark, note: String, days: [Day])] = [:]
      var order: [String] = []
      for row in rows {
        let key = "\(row.status.rawValue)\u{0}\(row.note ?? "")"
        if groups[key] == nil {
          groups[key] = (row.status == .done ? .done : .skipped, row.note ?? "", [])
          order.append(key)
        }
        groups[key]!.days.append(row.day)
      }
      for key in order {
        let group = groups[key]!
        try await session.store.setDays(
          group.days, of: habit.id, to: group.mark, note: group.note, for: session.user.id)
      }
      written += Set(rows.map(\.day)).count
    }
    session.output.line(
      "Imported \(Sentence.count(written, "entry", "entries")) into "
        + "\(Sentence.count(planned.count, "habit")) (\(planned.filter(\.isNew).count) new).")
  }
}
