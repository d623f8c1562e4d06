import Foundation
import GRDB
import TallyCore
import TallyImport
import TallySQLite
import TallyStore
import Testing

/// The real files of other apps under `../shared/fixtures` beside the package, as in CI.
enum SharedFixtures {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../shared/fixtures").standardized

  static func path(_ relative: String) -> String {
    folder.appendingPathComponent(relative).path
  }

  static func data(_ relative: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path(relative)))
  }

  /// Reads a database with SQL of the test's own: the independent count.
  static func query<T>(_ relative: String, _ body: (Database) throws -> T) throws -> T {
    var configuration = Configuration()
    configuration.readonly = true
    return try DatabaseQueue(path: path(relative), configuration: configuration).read(body)
  }

  static let today = day("2026-12-01")

  /// Reads the file as `tally import` does: the kind told from its contents.
  static func read(_ relative: String, timeZone: TimeZone = .gmt) throws -> ImportedHistory {
    let path = path(relative)
    var isFolder: ObjCBool = false
    _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
    let data = isFolder.boolValue ? nil : try Data(contentsOf: URL(fileURLWithPath: path))
    let format = try Importer.detect(path: path, data: data)
    return try Importer.read(format, path: path, data: data ?? Data(), today: today, timeZone: timeZone)
  }
}

/// A fresh in-memory store with one user, the store's own writes, as the CLI and server use.
struct ImportTarget {
  let store: SQLiteStore
  let user: User

  init(timeZone: String = "Europe/Berlin") async throws {
    store = SQLiteStore(try AppDatabase.inMemory())
    user = try await store.createUser(
      User(id: UUID(), name: "ada", settings: UserSettings(timeZone: timeZone, firstWeekday: .monday)))
  }

  @discardableResult
  func run(_ history: ImportedHistory, dryRun: Bool = false) async throws -> ImportSummary {
    try await ImportPlanner.run(history, store: store, user: user.id, today: SharedFixtures.today, dryRun: dryRun)
  }

  /// Imports, then imports again and expects nothing added the second time.
  @discardableResult
  func runTwice(_ history: ImportedHistory) async throws -> ImportSummary {
    let first = try await run(history)
    let second = try await run(history)
    #expect(second.newHabits == 0)
    #expect(second.entries == 0)
    #expect(second.journalAdded == 0 && second.journalMerged == 0)
    #expect(second.conflicts == 0)
    #expect(second.unchanged == first.entries)
    return first
  }

  func habits() async throws -> [Habit] {
    try await store.habits(for: user.id, includingArchived: true)
  }

  func entries(_ name: String) async throws -> [HabitEntry] {
    let habit = try #require(try await habits().first { $0.name == name })
    return try await store.entries(of: habit.id, for: user.id)
  }

  func journal() async throws -> [JournalEntry] {
    try await store.journalEntries(in: Day.allTime, for: user.id)
  }
}
