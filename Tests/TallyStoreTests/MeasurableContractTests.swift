import Foundation
import TallyCore
import TallyStore
import Testing

/// Measurable habits, amounts and every schedule (issue 15), held to the same contract by
/// every store.
@Suite struct MeasurableContractTests {
  func run(created: String = "2026-01-01", frequency: Frequency = .daily) throws -> Habit {
    try Habit(
      id: UUID(), name: "Run", createdDay: day(created), frequency: frequency,
      measure: Measure(unit: "km", target: Amount(thousandths: 5_500), direction: .atLeast),
      description: "Easy pace")
  }

  @Test(arguments: StoreFactory.all)
  func habitsKeepKindScheduleAndDescription(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let habits = [
      try run(frequency: .monthly(timesPerMonth: 1)),
      makeHabit("Swim", frequency: .timesInDays(times: 3, days: 10)),
      makeHabit("Read", frequency: .monthly(timesPerMonth: 4)),
      try Habit(
        id: UUID(), name: "Coffee", createdDay: day("2026-01-01"),
        measure: Measure(unit: "cups", target: Amount(2), direction: .atMost)),
    ]
    for habit in habits { _ = try await store.createHabit(habit, for: ada.id) }
    for habit in habits {
      #expect(try await store.habit(id: habit.id, for: ada.id) == habit)
    }
  }

  @Test(arguments: StoreFactory.all)
  func amountsAreStoredExactlyAndReplaced(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let habit = try await store.createHabit(try run(), for: ada.id)
    let d = day("2026-03-08")
    let amount = try Amount(parsing: "5.125")
    #expect(
      try await store.setDay(d, of: habit.id, to: .amount(amount), note: "hills", for: ada.id)
        == HabitEntry(day: d, status: .done, note: "hills", amount: amount))
    #expect(
      try await store.setDay(d, of: habit.id, to: .amount(.zero), for: ada.id)
        == HabitEntry(day: d, status: .done, note: "hills", amount: .zero))
    #expect(
      try await store.setDay(d, of: habit.id, to: .skipped, for: ada.id)
        == HabitEntry(day: d, status: .skipped, note: "hills"))
    let listed = try await store.entries(in: d...d, for: ada.id)
    #expect(listed[habit.id] == [HabitEntry(day: d, status: .skipped, note: "hills")])
  }

  @Test(arguments: StoreFactory.all)
  func entriesThatBreakTheKindAreRefusedAndNothingIsStored(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let measured = try await store.createHabit(try run(), for: ada.id)
    let yesNo = try await addHabit(store, for: ada)
    let d = day("2026-03-08")
    await #expect(throws: StoreError.self) {
      try await store.setDay(d, of: yesNo.id, to: .amount(Amount(2)), for: ada.id)
    }
    await #expect(throws: StoreError.self) { try await store.setDay(d, of: measured.id, to: .done, for: ada.id) }
    #expect(try await store.entries(in: d...d, for: ada.id).isEmpty)

    // A refused mark over a kept day leaves the day, and the feed, as they were.
    let kept = try await store.setDay(d, of: measured.id, to: .amount(Amount(3)), note: "flat", for: ada.id)
    let head = try await store.revision(for: ada.id)
    await #expect(throws: StoreError.self) {
      try await store.setDays([d, d.adding(days: 1)], of: measured.id, to: .done, note: "hills", for: ada.id)
    }
    #expect(try await store.entries(of: measured.id, for: ada.id) == [try #require(kept)])
    #expect(try await store.revision(for: ada.id) == head)
  }

  @Test(arguments: StoreFactory.all)
  func kindCannotChangeOnceDaysAreMarked(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    var habit = try await addHabit(store, for: ada)
    habit.measure = try Measure(unit: "pages", target: Amount(20))
    #expect(try await store.updateHabit(habit, for: ada.id).kind == .measurable, "no entries yet")
    try await store.setDay(day("2026-03-08"), of: habit.id, to: .amount(Amount(3)), for: ada.id)
    habit.measure = nil
    await #expect(throws: StoreError.self) { try await store.updateHabit(habit, for: ada.id) }
    #expect(try await store.habit(id: habit.id, for: ada.id).kind == .measurable)
  }

  @Test(arguments: StoreFactory.all)
  func snapshotsAndHistoryCarryAmounts(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let habit = try run(frequency: .weekly(targetPerWeek: 1))
    let entries = [
      HabitEntry(day: day("2026-03-01"), status: .done, amount: Amount(thousandths: 1)),
      HabitEntry(day: day("2026-03-02"), status: .skipped, note: "sick"),
      HabitEntry(day: day("2026-03-03"), status: .noted, note: "knee hurt"),
    ]
    var additions = HistoryAdditions()
    additions.newHabits = [UserSnapshot.HabitWithEntries(habit: habit, entries: entries)]
    try await store.addHistory(additions, for: ada.id)
    let snapshot = try await store.snapshot(of: ada.id)
    #expect(snapshot.habits.map(\.entries) == [entries])

    let copy = try await factory.make()
    let restored = try await copy.restore(snapshot, into: .newUser(id: UUID(), name: "bea"))
    #expect(try await copy.snapshot(of: restored.id).habits == snapshot.habits)

    var bad = HistoryAdditions()
    bad.entries[habit.id] = [HabitEntry(day: day("2026-03-03"), status: .done)]
    await #expect(throws: StoreError.self) { try await store.addHistory(bad, for: ada.id) }
    #expect(try await store.entries(of: habit.id, for: ada.id) == entries)
  }
}
