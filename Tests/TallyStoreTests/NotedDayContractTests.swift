import Foundation
import TallyCore
import TallyStore
import Testing

/// A note on a day not done (issue 15): a noted entry, kept, changed and cleared as any other,
/// and refused without a note (snapshots and restores carry it: MeasurableContractTests).
@Suite struct NotedDayContractTests {
  @Test(arguments: StoreFactory.all)
  func aNoteIsKeptOnADayNotDone(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let habit = try await addHabit(store, for: ada)
    let d = day("2026-03-08")
    let noted = HabitEntry(day: d, status: .noted, note: "rained all day")
    #expect(try await store.setDay(d, of: habit.id, to: .noted, note: " rained all day ", for: ada.id) == noted)
    #expect(try await store.entries(of: habit.id, for: ada.id) == [noted])
    // Marked done later, the note stays; cleared, everything goes.
    #expect(
      try await store.setDay(d, of: habit.id, to: .done, for: ada.id)
        == HabitEntry(day: d, status: .done, note: "rained all day"))
    #expect(try await store.setDay(d, of: habit.id, to: .noted, note: "after all, no", for: ada.id)?.status == .noted)
    #expect(try await store.setDay(d, of: habit.id, to: .nothing, for: ada.id) == nil)
    #expect(try await store.entries(of: habit.id, for: ada.id).isEmpty)
  }

  @Test(arguments: StoreFactory.all)
  func aNotedDayWithoutANoteIsRefusedNamingTheNote(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let habit = try await addHabit(store, for: ada)
    let measured = try await store.createHabit(
      try Habit(
        id: UUID(), name: "Run", createdDay: day("2026-01-01"),
        measure: Measure(unit: "km", target: Amount(5), direction: .atLeast)),
      for: ada.id)
    let d = day("2026-03-08")
    try await store.setDay(d, of: habit.id, to: .done, note: "kept", for: ada.id)
    for note in [nil, "", "  \n"] as [String?] {
      do {
        try await store.setDay(d, of: habit.id, to: .noted, note: note, for: ada.id)
        Issue.record("a noted day without a note was taken")
      } catch StoreError.invalid(let error) {
        #expect(error.field == "note")
      }
    }
    #expect(try await store.entries(of: habit.id, for: ada.id) == [HabitEntry(day: d, status: .done, note: "kept")])
    var bad = HistoryAdditions()
    bad.entries[habit.id] = [HabitEntry(day: day("2026-03-01"), status: .noted)]
    bad.entries[measured.id] = [HabitEntry(day: day("2026-03-01"), status: .noted, note: "x", amount: Amount(1))]
    await #expect(throws: StoreError.self) { try await store.addHistory(bad, for: ada.id) }
    #expect(try await store.entries(of: measured.id, for: ada.id).isEmpty)
  }
}
