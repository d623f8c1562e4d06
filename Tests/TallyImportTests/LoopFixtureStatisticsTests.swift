import Foundation
import GRDB
import TallyCore
import TallyCoreReference
import TallyImport
import TallySQLite
import TallyStore
import Testing

/// Every Loop fixture, small and big, backup and CSV, imports without flattening anything, and
/// each habit's statistics in Tally equal the reference worked out from Loop's own rows.
@Suite struct LoopFixtureStatisticsTests {
  /// `../shared/fixtures/loop` beside the worktree, as in CI.
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../shared/fixtures/loop").standardized

  static let backups = ["Loop Habits Backup 2024-03-10 120000.db", "Loop Habits Backup 2025-06-30 big.db"]
  static let zips = ["Loop Habits CSV 2024-03-10.zip", "Loop Habits CSV 2025-06-30 big.zip"]
  static let today = day("2025-06-30")

  /// The one warning Tally may still give: a reminder on some weekdays only. Nothing about
  /// numeric habits, frequencies, descriptions or notes.
  static func checkWarnings(_ history: ImportedHistory) {
    for warning in history.warnings {
      #expect(warning.message.contains("was on some weekdays only"), "\(warning)")
      #expect(!warning.message.contains("note"), "\(warning)")
    }
  }

  /// Loop's rows read straight from its tables: 2 done, 3 skipped, a numeric habit's other
  /// values its amount in thousandths; 1, 0 and -1 are nothing, or a noted day with a note.
  static func loopEntries(_ path: String) throws -> [String: [HabitEntry]] {
    var configuration = Configuration()
    configuration.readonly = true
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    return try queue.read { db in
      var result: [String: [HabitEntry]] = [:]
      let rows = try Row.fetchAll(
        db,
        sql: """
          SELECT h.name, h.type, r.timestamp, r.value, r.notes FROM Repetitions r JOIN Habits h ON h.id = r.habit
          WHERE r.timestamp <= ? ORDER BY r.timestamp
          """,
        arguments: [Int64(today.ordinal + 1) * 86_400_000 - 1])
      for row in rows {
        let numeric = (row["type"] as Int) == 1
        let value: Int64 = row["value"]
        let when = Day(ordinal: Int((row["timestamp"] as Int64) / 86_400_000))
        let note = (row["notes"] as String?).flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
        let entry: HabitEntry? =
          switch (numeric, value) {
          case (_, 3): HabitEntry(day: when, status: .skipped, note: note)
          case (false, 2): HabitEntry(day: when, status: .done, note: note)
          case (true, 0...): HabitEntry(day: when, status: .done, note: note, amount: Amount(thousandths: value))
          default: note.map { HabitEntry(day: when, status: .noted, note: $0) }
          }
        if let entry { result[row["name"], default: []].append(entry) }
      }
      return result
    }
  }

  func imported(_ history: ImportedHistory) async throws -> (SQLiteStore, User) {
    let store = SQLiteStore(try AppDatabase.inMemory())
    let user = try await store.createUser(
      User(id: UUID(), name: "ada", settings: UserSettings(timeZone: "Europe/Berlin", firstWeekday: .monday)))
    let plan = try ImportPlanner.plan(history, existing: [], entries: [:], today: Self.today, dryRun: false)
    try await store.addHistory(plan.additions, for: user.id)
    return (store, user)
  }

  @Test(arguments: zip(backups, zips))
  func statisticsEqualTheReferenceFromLoopsOwnRows(_ backup: String, _ zipped: String) async throws {
    let path = Self.folder.appendingPathComponent(backup).path
    let fromBackup = try LoopBackupReader.read(path: path, today: Self.today)
    let fromZip = try LoopCSVReader.read(path: Self.folder.appendingPathComponent(zipped).path, today: Self.today)
    Self.checkWarnings(fromBackup)
    Self.checkWarnings(fromZip)
    #expect(fromBackup.habits.contains { $0.measure != nil })
    #expect(fromBackup.habits.contains { $0.entries.contains { $0.status == .noted } })
    let raw = try Self.loopEntries(path)
    let (store, user) = try await imported(fromBackup)
    let habits = try await store.habits(for: user.id, includingArchived: true)
    #expect(habits.count == fromBackup.habits.count)
    for habit in habits {
      let stored = try await store.entries(of: habit.id, for: user.id)
      #expect(stored == raw[habit.name] ?? [], "\(habit.name)")
      let zipHabit = try #require(fromZip.habits.first { $0.name == habit.name })
      #expect(zipHabit.entries == stored, "\(habit.name): the CSV export holds the same days")
      #expect(zipHabit.measure == habit.measure && zipHabit.frequency == habit.frequency)
      for weekday in [Weekday.monday, .sunday] {
        let fast = HabitStatistics(habit: habit, history: HabitHistory(stored), today: Self.today, firstWeekday: weekday)
        let slow = ReferenceStatistics.statistics(
          habit: habit, entries: raw[habit.name] ?? [], today: Self.today, firstWeekday: weekday)
        #expect(fast.currentStreak == slow.currentStreak, "\(habit.name)")
        #expect(fast.longestStreak == slow.longestStreak, "\(habit.name)")
        #expect(abs(fast.completionRate - slow.completionRate) < 1e-12, "\(habit.name)")
        #expect(abs(fast.score - slow.score) < 1e-9, "\(habit.name)")
        #expect(fast.periodAmount == slow.periodAmount, "\(habit.name)")
      }
    }
  }
}
