import Foundation
import TallyCore
import TallyStore
import Testing

@Suite struct HistoryContractTests {
  /// Imported journal text joins a day's entry: a day without one gets it, a day with other
  /// text gets it added after, a day holding it already is left alone; sync sees each change.
  @Test(arguments: StoreFactory.all)
  func addsJournalTextAfterWhatADayHolds(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let user = try await makeUser(store)
    try await store.setJournalEntry(try JournalEntry(day: day("2026-03-01"), text: "Mine."), for: user.id)
    try await store.setJournalEntry(try JournalEntry(day: day("2026-03-02"), text: "Ran. Slept."), for: user.id)
    let additions = HistoryAdditions(journal: [
      day("2026-03-01"): ["Theirs.", " Mine. "], day("2026-03-02"): ["Slept."], day("2026-03-03"): ["New.", "Two."],
    ])
    let added = try await store.addHistory(additions, for: user.id)
    #expect(added.journalAdded == 1 && added.journalMerged == 1)
    #expect(
      try await store.journalEntries(in: Day.allTime, for: user.id) == [
        try JournalEntry(day: day("2026-03-01"), text: "Mine.\n\nTheirs."),
        try JournalEntry(day: day("2026-03-02"), text: "Ran. Slept."),
        try JournalEntry(day: day("2026-03-03"), text: "New.\n\nTwo."),
      ])
    let again = try await store.addHistory(additions, for: user.id)
    #expect(again.journalAdded == 0 && again.journalMerged == 0)
    // Too long a day refuses the whole addition, the new habit with it.
    let long = HistoryAdditions(
      newHabits: [UserSnapshot.HabitWithEntries(habit: makeHabit("Walk"), entries: [])],
      journal: [day("2026-03-01"): [String(repeating: "a", count: JournalEntry.maxCharacters)]])
    await #expect(throws: StoreError.self) { try await store.addHistory(long, for: user.id) }
    #expect(try await store.habits(for: user.id, includingArchived: true).isEmpty)
  }

  @Test(arguments: StoreFactory.all)
  func addsNewHabitsAndFillsOnlyEmptyDaysOfExistingOnes(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let user = try await makeUser(store)
    let read = try await addHabit(store, for: user)
    try await store.setDay(day("2026-03-02"), of: read.id, to: .skipped, note: "ill", for: user.id)
    let walk = makeHabit("Walk", created: "2026-02-01", sortOrder: 1)
    let additions = HistoryAdditions(
      newHabits: [
        UserSnapshot.HabitWithEntries(
          habit: walk, entries: [HabitEntry(day: day("2026-02-01"), status: .done, note: " brisk ")])
      ],
      entries: [
        read.id: [
          HabitEntry(day: day("2026-03-01"), status: .done),
          HabitEntry(day: day("2026-03-02"), status: .done, note: "imported"),
        ]
      ])
    let added = try await store.addHistory(additions, for: user.id)
    #expect(added == HistoryAdded(habitsCreated: 1, entriesAdded: 2, daysKept: [read.id: [day("2026-03-02")]]))
    #expect(
      try await store.entries(of: read.id, for: user.id) == [
        HabitEntry(day: day("2026-03-01"), status: .done),
        HabitEntry(day: day("2026-03-02"), status: .skipped, note: "ill"),
      ])
    #expect(try await store.habit(id: walk.id, for: user.id) == walk)
    #expect(
      try await store.entries(of: walk.id, for: user.id) == [HabitEntry(day: day("2026-02-01"), status: .done, note: "brisk")])
    // Again: every day now has an entry, so nothing is added.
    let again = try await store.addHistory(HistoryAdditions(entries: additions.entries), for: user.id)
    #expect(again.entriesAdded == 0)
    #expect(again.daysKept[read.id] == days("2026-03-01", "2026-03-02"))
  }

  @Test(arguments: StoreFactory.all)
  func refusesAndChangesNothing(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let user = try await makeUser(store)
    let other = try await makeUser(store, "bob")
    let read = try await addHabit(store, for: user)
    let theirs = try await addHabit(store, for: other, "Theirs")
    let before = try await store.snapshot(of: user.id)
    let fresh = UserSnapshot.HabitWithEntries(
      habit: makeHabit("New"), entries: [HabitEntry(day: day("2026-01-02"), status: .done)])
    let cases: [(HistoryAdditions, StoreError)] = [
      // The name of one of the user's habits.
      (HistoryAdditions(newHabits: [UserSnapshot.HabitWithEntries(habit: makeHabit("Read"), entries: [])]),
        .conflict("a habit named 'Read' already exists; give the new one another name")),
      // An id another user has.
      (HistoryAdditions(newHabits: [UserSnapshot.HabitWithEntries(habit: theirs, entries: [])]),
        .conflict("a habit with id \(theirs.id.storeText) already exists")),
      // Another user's habit, after a valid new one: the new one is rolled back.
      (HistoryAdditions(newHabits: [fresh], entries: [theirs.id: [HabitEntry(day: day("2026-01-02"), status: .done)]]),
        .notFound(.habit(theirs.id))),
      (HistoryAdditions(entries: [read.id: [HabitEntry(day: day("2026-01-02"), status: .done),
        HabitEntry(day: day("2026-01-02"), status: .skipped)]]),
        .conflict("the day 2026-01-02 of the habit '\(read.id.storeText)' is listed twice")),
      (HistoryAdditions(entries: [read.id: [HabitEntry(day: day("2026-01-02"), status: .done, note: "a\u{0}b")]]),
        .invalid(ValidationError(field: "note", rule: "must not contain the NUL character (U+0000)"))),
    ]
    for (additions, expected) in cases {
      await #expect(throws: expected) { try await store.addHistory(additions, for: user.id) }
      #expect(try await store.snapshot(of: user.id) == before)
    }
    await #expect(throws: StoreError.notFound(.user(read.id))) {
      try await store.addHistory(HistoryAdditions(), for: read.id)
    }
  }
}
