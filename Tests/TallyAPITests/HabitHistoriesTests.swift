import Foundation
import PropertyBased
import TallyCore
import TallyHTTP
import TallyPostgres
import TallyPostgresTesting
import TallySQLite
import TallyStore
import TallySync
import TallyTestFiles
import Testing

/// The days the server keeps in memory (``HabitHistories``) against the store read whole:
/// after random writes by two handles on one database (another process, another instance),
/// deletes, skips, notes, amounts, imports, edited habits and merged pushes, every kept habit
/// holds exactly the store's days and the statistics a full recomputation gives.
@Suite struct HabitHistoriesTests {
  enum Engine: String, CaseIterable, CustomTestStringConvertible {
    case sqlite, postgres

    static let all: [Engine] = PostgresTesting.url == nil ? [.sqlite] : [.sqlite, .postgres]
    var testDescription: String { rawValue }

    /// Two handles on one new database.
    func stores() async throws -> (any SyncingStore, any SyncingStore) {
      switch self {
      case .sqlite:
        let path = TestFiles.database("histories")
        return (SQLiteStore(try AppDatabase.open(at: path)), SQLiteStore(try AppDatabase.open(at: path)))
      case .postgres:
        let location = try PostgresTesting.freshLocation()
        return (
          PostgresStore(try await PostgresTesting.open(location)), PostgresStore(try await PostgresTesting.open(location))
        )
      }
    }
  }

  static let firstDay = Day("2026-09-01")!
  static let today = Day("2026-11-01")!

  @Test(arguments: Engine.all) func keptDaysAreTheStoresAfterEveryKindOfWrite(_ engine: Engine) async throws {
    await propertyCheck(count: 12, input: Gen.int(in: 0..<1_000_000_000).array(of: 5...40)) { codes in
      do {
        try await Self.run(codes, engine)
      } catch {
        Issue.record("the writes \(codes) failed: \(error)")
      }
    }
  }

  static func run(_ codes: [Int], _ engine: Engine) async throws {
    let (store, other) = try await engine.stores()
    let user = try await store.createUser(
      User(id: UUID(), name: "ada", settings: UserSettings(timeZone: "Europe/Berlin", firstWeekday: .monday)))
    var habits = [
      try await store.createHabit(try Habit(id: UUID(), name: "Read", createdDay: firstDay), for: user.id),
      try await store.createHabit(
        try Habit(id: UUID(), name: "Run", createdDay: firstDay, measure: try Measure(unit: "km", target: Amount(5))),
        for: user.id),
    ]
    // One reads after every write, one now and then, one with a small page of changes so
    // that a long gap reads everything again.
    let every = HabitHistories()
    let sometimes = HabitHistories()
    let smallPages = HabitHistories(changesRead: 3)
    let device = UUID()
    var tick: Int64 = 0
    for (index, code) in codes.enumerated() {
      let writer = code % 2 == 0 ? store : other
      let habit = habits[(code / 2) % habits.count]
      let day = firstDay.adding(days: (code / 7) % 60)
      let days = (0...((code / 420) % 4)).map { day.adding(days: $0) }.filter { $0 <= today }
      switch (code / 3) % 10 {
      case 0:
        let mark: DayMark = habit.measure == nil ? .done : .amount(Amount(code % 4 + 1))
        try await writer.setDays(days, of: habit.id, to: mark, note: nil, for: user.id)
      case 1: try await writer.setDays(days, of: habit.id, to: .skipped, note: "away", for: user.id)
      case 2: try await writer.setDays(days, of: habit.id, to: .nothing, note: nil, for: user.id)
      case 3: try await writer.setDays(days, of: habit.id, to: .noted, note: "only a note \(index)", for: user.id)
      case 4:
        let mark: DayMark = habit.measure == nil ? .done : .amount(Amount(code % 9 + 1))
        try await writer.setDays(days, of: habit.id, to: mark, note: nil, for: user.id)
      case 5:
        // An import adds days a habit lacks and a new habit with its own.
        let added = try Habit(id: UUID(), name: "Imported \(index)", createdDay: firstDay)
        try await writer.addHistory(
          HistoryAdditions(
            newHabits: [.init(habit: added, entries: days.map { HabitEntry(day: $0, status: .done) })],
            entries: [habit.id: days.map { HabitEntry(day: $0.adding(days: 1), status: .skipped) }]),
          for: user.id)
        habits.append(added)
      case 6:
        tick += 1
        let stamp = HybridStamp(milliseconds: Int64(Date().timeIntervalSince1970 * 1000) + tick, counter: 0, device: device)
        let status: SyncValue = code % 5 == 0 ? .null : .string(code % 5 == 1 ? "skipped" : "done")
        let amount: SyncValue = habit.measure != nil && status == .string("done") ? .int(Int64(code % 7 + 1)) : .null
        let changes = days.map { day in
          SyncChange(
            kind: .entry, id: SyncID.entry(habit.id, day), stamp: stamp,
            fields: ["status": status, "note": .null, "amount": amount])
        }
        _ = try await writer.applyPush(
          SyncPushRequest(device: device, changes: changes), for: user.id, now: Date(), limits: SyncLimits())
      case 7 where habits.count > 2:
        try await writer.deleteHabit(id: habit.id, for: user.id)
        habits.removeAll { $0.id == habit.id }
      case 8:
        // A new order changes every habit's place at once.
        let ids = Array(habits.map(\.id).reversed())
        let turn = code % ids.count
        habits = try await writer.reorderHabits(Array(ids.dropFirst(turn) + ids.prefix(turn)), for: user.id)
      default:
        // The habit itself changes; its statistics with it, its days not.
        var changed = try await writer.habit(id: habit.id, for: user.id)
        changed.archived.toggle()
        if changed.measure == nil {
          changed.frequency = changed.frequency == .daily ? .weekly(targetPerWeek: 3) : .daily
        }
        _ = try await writer.updateHabit(changed, for: user.id)
        habits[habits.firstIndex { $0.id == habit.id }!] = changed
      }
      try await check(every, store, user: user.id, after: codes)
      if index % 5 == 4 { try await check(sometimes, other, user: user.id, after: codes) }
      if index % 7 == 6 { try await check(smallPages, store, user: user.id, after: codes) }
    }
    for histories in [every, sometimes, smallPages] {
      try await check(histories, store, user: user.id, after: codes)
    }
  }

  /// What `histories` keeps is what the store holds, and so are the statistics.
  static func check(_ histories: HabitHistories, _ store: any SyncingStore, user: UUID, after codes: [Int]) async throws {
    let kept = try await histories.read(for: user, from: store)
    for archived in [true, false] {
      #expect(
        kept.habits(includingArchived: archived) == (try await store.habits(for: user, includingArchived: archived)),
        "the habits (archived ones \(archived ? "too" : "left out")) after \(codes)")
    }
    let stored = try await store.entries(in: Day.allTime, for: user)
    for habit in try await store.habits(for: user, includingArchived: true) {
      let days = kept.days(of: habit.id)
      #expect(days.entries == (stored[habit.id] ?? []), "\(habit.name)'s days after \(codes)")
      let statistics = days.statistics(of: habit, today: today, firstWeekday: .monday)
      let fresh = HabitStatistics(
        habit: habit, history: HabitHistory(stored[habit.id] ?? []), today: today, firstWeekday: .monday)
      #expect(statistics == fresh, "\(habit.name)'s statistics after \(codes)")
    }
  }
}
