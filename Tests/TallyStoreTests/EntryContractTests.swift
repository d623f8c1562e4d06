import Foundation
import TallyCore
import TallyStore
import Testing

@Suite struct EntryContractTests {
  @Test(arguments: StoreFactory.all)
  func settingADayIsIdempotent(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let habit = try await addHabit(store, for: ada)
    let d = day("2026-03-08")
    let done = HabitEntry(day: d, status: .done)
    #expect(try await store.setDay(d, of: habit.id, to: .done, for: ada.id) == done)
    #expect(try await store.setDay(d, of: habit.id, to: .done, for: ada.id) == done)
    #expect(try await store.entries(of: habit.id, for: ada.id) == [done])

    let skipped = HabitEntry(day: d, status: .skipped)
    #expect(try await store.setDay(d, of: habit.id, to: .skipped, for: ada.id) == skipped)
    #expect(try await store.setDay(d, of: habit.id, to: .skipped, for: ada.id) == skipped)
    #expect(try await store.entries(of: habit.id, for: ada.id) == [skipped])

    #expect(try await store.setDay(d, of: habit.id, to: .nothing, for: ada.id) == nil)
    #expect(try await store.setDay(d, of: habit.id, to: .nothing, for: ada.id) == nil)
    #expect(try await store.entries(of: habit.id, for: ada.id).isEmpty)
  }

  @Test(arguments: StoreFactory.all)
  func manyDaysAreSetAtOnce(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let habit = try await addHabit(store, for: ada)
    let set = try await store.setDays(
      days("2026-03-03", "2026-03-01", "2026-03-03", "2025-12-31"), of: habit.id, to: .done,
      note: nil, for: ada.id)
    #expect(set.map(\.day) == days("2025-12-31", "2026-03-01", "2026-03-03"))
    #expect(set.allSatisfy { $0.status == .done && $0.note == nil })
    #expect(try await store.entries(of: habit.id, for: ada.id) == set)

    let cleared = try await store.setDays(
      days("2026-03-01", "2026-03-02"), of: habit.id, to: .nothing, note: nil, for: ada.id)
    #expect(cleared.isEmpty)
    #expect(try await store.entries(of: habit.id, for: ada.id).map(\.day) == days("2025-12-31", "2026-03-03"))
    #expect(try await store.setDays([], of: habit.id, to: .done, note: nil, for: ada.id).isEmpty)

    let year = (0..<366).map { day("2025-01-01").adding(days: $0) }
    #expect(try await store.setDays(year, of: habit.id, to: .skipped, note: nil, for: ada.id).count == 366)
    // The 366 days and 2026-03-03, which was already done.
    #expect(try await store.entries(of: habit.id, for: ada.id).count == 367)
  }

  @Test(arguments: StoreFactory.all)
  func notesAreKeptReplacedOrCleared(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let habit = try await addHabit(store, for: ada)
    let (d1, d2) = (day("2026-03-01"), day("2026-03-02"))
    try await store.setDays([d1, d2], of: habit.id, to: .done, note: "  ran 5 km ", for: ada.id)
    #expect(try await store.entries(of: habit.id, for: ada.id).map(\.note) == ["ran 5 km", "ran 5 km"])

    // No note given: each day keeps its own, even when the status changes.
    try await store.setDay(d1, of: habit.id, to: .skipped, for: ada.id)
    #expect(try await store.entries(of: habit.id, for: ada.id) == [
      HabitEntry(day: d1, status: .skipped, note: "ran 5 km"),
      HabitEntry(day: d2, status: .done, note: "ran 5 km"),
    ])
    try await store.setDay(d2, of: habit.id, to: .done, note: "rain", for: ada.id)
    try await store.setDay(d1, of: habit.id, to: .skipped, note: "   ", for: ada.id)
    #expect(try await store.entries(of: habit.id, for: ada.id) == [
      HabitEntry(day: d1, status: .skipped),
      HabitEntry(day: d2, status: .done, note: "rain"),
    ])
    // Clearing a day drops its note with it.
    try await store.setDay(d2, of: habit.id, to: .nothing, for: ada.id)
    try await store.setDay(d2, of: habit.id, to: .done, for: ada.id)
    #expect(try await store.entries(of: habit.id, in: d2...d2, for: ada.id) == [HabitEntry(day: d2, status: .done)])
  }

  @Test(arguments: StoreFactory.all)
  func aRejectedNoteChangesNoDay(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let habit = try await addHabit(store, for: ada)
    let tooLong = String(repeating: "n", count: EntryNote.maxCharacters + 1)
    await #expect(throws: StoreError.self) {
      try await store.setDays(days("2026-03-01", "2026-03-02"), of: habit.id, to: .done, note: tooLong, for: ada.id)
    }
    #expect(try await store.entries(of: habit.id, for: ada.id).isEmpty)
  }

  @Test(arguments: StoreFactory.all)
  func rangesSelectDaysAndHabits(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let read = try await addHabit(store, for: ada, "Read")
    let run = try await addHabit(store, for: ada, "Run", archived: true)
    let idle = try await addHabit(store, for: ada, "Idle")
    try await store.setDays(days("2026-02-28", "2026-03-01", "2026-03-31", "2026-04-01"), of: read.id, to: .done, note: nil, for: ada.id)
    try await store.setDays(days("2026-03-15"), of: run.id, to: .skipped, note: "sick", for: ada.id)
    _ = idle

    let march = day("2026-03-01")...day("2026-03-31")
    #expect(try await store.entries(of: read.id, in: march, for: ada.id).map(\.day) == days("2026-03-01", "2026-03-31"))
    let all = try await store.entries(in: march, for: ada.id)
    #expect(all == [
      read.id: [HabitEntry(day: day("2026-03-01"), status: .done), HabitEntry(day: day("2026-03-31"), status: .done)],
      run.id: [HabitEntry(day: day("2026-03-15"), status: .skipped, note: "sick")],
    ])
    #expect(try await store.entries(in: day("2027-01-01")...day("2027-12-31"), for: ada.id).isEmpty)
  }

  @Test(arguments: StoreFactory.all)
  func entriesNeedAHabitOfTheUser(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let missing = UUID()
    await #expect(throws: StoreError.notFound(.habit(missing))) {
      try await store.setDay(day("2026-03-01"), of: missing, to: .done, for: ada.id)
    }
    await #expect(throws: StoreError.notFound(.habit(missing))) {
      try await store.entries(of: missing, for: ada.id)
    }
    let nobody = UUID()
    await #expect(throws: StoreError.notFound(.user(nobody))) {
      try await store.entries(in: day("2026-03-01")...day("2026-03-02"), for: nobody)
    }
  }
}

@Suite struct EntryNoteNulTests {
  /// A note with NUL would come back from SQLite cut at the NUL: every store refuses it.
  @Test(arguments: StoreFactory.all)
  func aNoteWithNulIsRefusedAndNothingIsWritten(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let user = try await makeUser(store)
    let habit = try await store.createHabit(makeHabit(), for: user.id)
    await #expect(throws: StoreError.invalid(ValidationError(field: "note", rule: "must not contain the NUL character (U+0000)"))) {
      try await store.setDays([day("2026-03-02")], of: habit.id, to: .done, note: "a\u{0}b", for: user.id)
    }
    #expect(try await store.entries(of: habit.id, for: user.id).isEmpty)
  }
}
