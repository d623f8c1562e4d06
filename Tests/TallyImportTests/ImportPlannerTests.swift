import Foundation
import GRDB
import TallyCore
import TallyImport
import TallySQLite
import TallyStore
import Testing

@Suite struct ImportPlannerTests {
  let today = day("2024-03-10")

  func fresh() async throws -> (SQLiteStore, User) {
    let store = SQLiteStore(try AppDatabase.inMemory())
    let user = try await store.createUser(
      User(id: UUID(), name: "ada", settings: UserSettings(timeZone: "America/New_York", firstWeekday: .sunday)))
    return (store, user)
  }

  /// Plans against what the user has and writes it, as `tally import` does.
  @discardableResult
  func run(_ history: ImportedHistory, into store: SQLiteStore, _ user: User, dryRun: Bool = false) async throws
    -> ImportSummary
  {
    let existing = try await store.habits(for: user.id, includingArchived: true)
    let entries = try await store.entries(in: Day.allTime, for: user.id)
    let plan = try ImportPlanner.plan(history, existing: existing, entries: entries, today: today, dryRun: dryRun)
    if !dryRun { try await store.addHistory(plan.additions, for: user.id) }
    return plan.summary
  }

  /// Loop backup → import → the statistics worked out by hand for the fixture.
  @Test func loopBackupStatisticsMatchTheHandComputedValues() async throws {
    let (store, user) = try await fresh()
    try await run(try LoopBackupReader.read(path: smallBackup, today: today), into: store, user)
    let habits = try await store.habits(for: user.id, includingArchived: true)
    #expect(habits.map(\.name) == ["Meditate", "Read élèves", "Gym, weights"])
    #expect(habits.map(\.sortOrder) == [0, 1, 2])
    func stats(_ name: String) async throws -> HabitStatistics {
      let habit = try #require(habits.first { $0.name == name })
      let entries = try await store.entries(of: habit.id, for: user.id)
      return HabitStatistics(habit: habit, history: HabitHistory(entries), today: today, firstWeekday: .sunday)
    }
    // Days 1–10 March without the skipped 5th: 9 days, done 1, 2, 6, 9, 10.
    let meditate = try await stats("Meditate")
    #expect(meditate.currentStreak == 2)
    #expect(meditate.longestStreak == 2)
    #expect(abs(meditate.completionRate - 5.0 / 9.0) < 1e-9)
    #expect(meditate.completionsThisWeek == 1)
    // 3 a week; weeks from Sunday: 25 Feb (1 done), 3 Mar (3 done: met), 10 Mar (current, 0).
    let gym = try await stats("Gym, weights")
    #expect(gym.streakUnit == .week)
    #expect(gym.currentStreak == 1)
    #expect(gym.longestStreak == 1)
    #expect(gym.completionRate == 0.5)
    #expect(gym.completionsThisWeek == 0)
    // At least 12.5 pages a day: met on the 2nd and the 8th only (the 3rd and 4th fell short).
    let read = try await stats("Read élèves")
    #expect(read.currentStreak == 0)
    #expect(read.longestStreak == 1)
    #expect(abs(read.completionRate - 2.0 / 8.0) < 1e-9)
  }

  @Test func importingTheSameFileTwiceChangesNothingTheSecondTime() async throws {
    let (store, user) = try await fresh()
    let history = try LoopBackupReader.read(path: smallBackup, today: today)
    let first = try await run(history, into: store, user)
    // Meditate's two notes on days not done are noted days: 16 entries, 3 with notes.
    #expect((first.newHabits, first.entries, first.notes, first.conflicts) == (3, 16, 3, 0))
    let before = try await store.snapshot(of: user.id)
    let second = try await run(history, into: store, user)
    #expect((second.newHabits, second.matchedHabits, second.entries, second.unchanged, second.conflicts) == (0, 3, 0, 16, 0))
    #expect(try await store.snapshot(of: user.id) == before)
  }

  @Test func existingEntriesAreKeptAndReportedAsConflicts() async throws {
    let (store, user) = try await fresh()
    let meditate = try await store.createHabit(
      try Habit(id: UUID(), name: "Meditate", createdDay: day("2024-01-01"), frequency: .weekly(targetPerWeek: 2)),
      for: user.id)
    try await store.setDay(day("2024-03-01"), of: meditate.id, to: .skipped, note: "travel", for: user.id)
    try await store.setDay(day("2024-03-02"), of: meditate.id, to: .done, for: user.id)
    let summary = try await run(try LoopBackupReader.read(path: smallBackup, today: today), into: store, user)
    #expect(summary.matchedHabits == 1)
    #expect(summary.newHabits == 2)
    #expect(summary.unchanged == 1)
    #expect(summary.conflicts == 1)
    #expect(summary.conflictDays == [ImportConflict(habit: "Meditate", day: day("2024-03-01"), stored: .skipped, imported: .done)])
    let entries = try await store.entries(of: meditate.id, for: user.id)
    #expect(entries.first == HabitEntry(day: day("2024-03-01"), status: .skipped, note: "travel"))
    #expect(entries.count == 8, "Loop's eight days, two of them noted; the 1st kept as it was")
    // A matched habit keeps its own settings.
    #expect(try await store.habit(id: meditate.id, for: user.id) == meditate)
  }

  @Test func aDryRunWritesNothing() async throws {
    let (store, user) = try await fresh()
    let before = try await store.snapshot(of: user.id)
    let summary = try await run(
      try LoopCSVReader.read(path: smallZip, today: today), into: store, user, dryRun: true)
    #expect(summary.dryRun)
    #expect(summary.newHabits == 3)
    #expect(try await store.snapshot(of: user.id) == before)
  }

  @Test func habitsOfOneFileWithOneNameAreNumbered() throws {
    let history = ImportedHistory(
      format: .beaver,
      habits: [ImportedHabit(name: "Run"), ImportedHabit(name: " Run "), ImportedHabit(name: String(repeating: "x", count: 120))])
    let plan = try ImportPlanner.plan(history, existing: [], entries: [:], today: today, dryRun: true)
    #expect(plan.additions.newHabits.map(\.habit.name) == ["Run", "Run (2)", String(repeating: "x", count: 100)])
    #expect(plan.additions.newHabits.map(\.habit.createdDay) == [today, today, today])
    #expect(plan.summary.warnings.count == 2)
  }

  /// Two of the file's habits match one of the user's: their days are planned once.
  @Test func twoFileHabitsMatchingOneHabitPlanEachDayOnce() throws {
    let run = try Habit(id: UUID(), name: "Run", createdDay: day("2024-01-01"))
    let history = ImportedHistory(
      format: .csv,
      habits: [
        ImportedHabit(name: "Run", id: run.id, entries: [HabitEntry(day: day("2024-03-01"), status: .done)]),
        ImportedHabit(
          name: "Run",
          entries: [HabitEntry(day: day("2024-03-01"), status: .skipped), HabitEntry(day: day("2024-03-02"), status: .done)]),
      ])
    let plan = try ImportPlanner.plan(history, existing: [run], entries: [:], today: today, dryRun: false)
    #expect(plan.additions.entries[run.id]?.map(\.day) == [day("2024-03-01"), day("2024-03-02")])
    #expect(plan.summary.conflicts == 1)
    #expect(plan.summary.matchedHabits == 2)
  }

  @Test func aFileHabitWithoutANameIsRefused() {
    let history = ImportedHistory(format: .beaver, habits: [ImportedHabit(name: "Run"), ImportedHabit(name: "  ")])
    #expect(throws: ImportError("habit 2 of the file", "it has no name")) {
      try ImportPlanner.plan(history, existing: [], entries: [:], today: today, dryRun: true)
    }
  }

  @Test func aDayBeforeAnyTallyKeepsRefusesTheFile() {
    let history = ImportedHistory(
      format: .csv,
      habits: [ImportedHabit(name: "Run", entries: [HabitEntry(day: day("0000-12-31"), status: .done)])])
    #expect(throws: ImportError("the habit 'Run'", "its day 0000-12-31 is before 0001-01-01, the first day Tally keeps")) {
      try ImportPlanner.plan(history, existing: [], entries: [:], today: today, dryRun: true)
    }
  }

  /// 50 habits × 10 years in Loop's layout: read and planned in one go.
  @Test func aHugeBackupIsImported() async throws {
    let start = day("2014-03-11")
    let path = try loopBackup { db in
      for habit in 1...50 {
        try addLoopHabit(db, id: habit, name: "Habit \(habit)", num: habit % 3 == 0 ? 3 : 1, den: habit % 3 == 0 ? 7 : 1)
        let statement = try db.makeStatement(sql: "INSERT INTO Repetitions (habit, timestamp, value) VALUES (?, ?, ?)")
        for offset in stride(from: 0, to: 3653, by: 1 + habit % 4) {
          try statement.execute(arguments: [habit, Int64(start.adding(days: offset).ordinal) * 86_400_000, offset % 11 == 0 ? 3 : 2])
        }
      }
    }
    let progress = ProgressLog()
    let history = try LoopBackupReader.read(path: path, today: today) { progress.append($0) }
    #expect(history.habits.count == 50)
    let rows = history.habits.reduce(0) { $0 + $1.entries.count }
    #expect(progress.last?.done == rows)
    #expect(progress.count > 3)
    let (store, user) = try await fresh()
    let summary = try await run(history, into: store, user)
    #expect(summary.entries == rows)
    #expect(try await store.entries(in: Day.allTime, for: user.id).values.reduce(0) { $0 + $1.count } == rows)
  }
}

final class ProgressLog: @unchecked Sendable {
  private let lock = NSLock()
  private var items: [ImportProgress] = []

  func append(_ item: ImportProgress) { lock.withLock { items.append(item) } }
  var last: ImportProgress? { lock.withLock { items.last } }
  var count: Int { lock.withLock { items.count } }
}
