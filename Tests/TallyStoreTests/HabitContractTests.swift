import Foundation
import TallyCore
import TallyStore
import Testing

@Suite struct HabitContractTests {
  @Test(arguments: StoreFactory.all)
  func everyFieldRoundTrips(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let habits = [
      try Habit(
        id: UUID(), name: "Stretch", icon: "figure.walk",
        color: HexColor(red: 1, green: 2, blue: 3, alpha: 0x80), group: "Body",
        createdDay: day("2025-12-31"), frequency: .weekly(targetPerWeek: 3),
        reminder: .periodic(
          start: WallTime(hour: 8), end: WallTime(hour: 22, minute: 30), everyHours: 2),
        archived: true, sortOrder: -4),
      try Habit(
        id: UUID(), name: "Read 📚", icon: "📚", createdDay: day("2026-03-08"),
        reminder: .single(WallTime(hour: 7, minute: 5)), sortOrder: 9),
      makeHabit("Plain"),
    ]
    for habit in habits {
      #expect(try await store.createHabit(habit, for: ada.id) == habit)
      #expect(try await store.habit(id: habit.id, for: ada.id) == habit)
    }
  }

  /// Each new habit goes last, even when several are added at the same moment (the position
  /// is read in the transaction that stores the habit, not before it).
  @Test(arguments: StoreFactory.all)
  func habitsAppendedAtOnceEachGetAPlaceOfTheirOwn(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    _ = try await addHabit(store, for: ada, "First", sortOrder: 4)
    let added = try await withThrowingTaskGroup(of: Habit.self) { group in
      for index in 0..<12 {
        group.addTask { try await store.appendHabit(makeHabit("Habit \(index)", sortOrder: 99), for: ada.id) }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(added.map(\.sortOrder).sorted() == Array(5..<17))
    let stored = try await store.habits(for: ada.id, includingArchived: true)
    #expect(stored.map(\.sortOrder) == Array(5..<17).reduce(into: [4]) { $0.append($1) })
    #expect(Set(stored.dropFirst().map(\.id)) == Set(added.map(\.id)))
    // A user's first habit starts the list.
    let bob = try await makeUser(store, "bob")
    #expect(try await store.appendHabit(makeHabit(sortOrder: 7), for: bob.id).sortOrder == 0)
  }

  @Test(arguments: StoreFactory.all)
  func createNeedsAUserAndAFreshId(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let habit = makeHabit()
    let nobody = UUID()
    await #expect(throws: StoreError.notFound(.user(nobody))) {
      try await store.createHabit(habit, for: nobody)
    }
    _ = try await store.createHabit(habit, for: ada.id)
    await #expect(throws: StoreError.conflict("a habit with id \(habit.id.storeText) already exists")) {
      try await store.createHabit(habit, for: ada.id)
    }
    let missing = UUID()
    await #expect(throws: StoreError.notFound(.habit(missing))) {
      try await store.habit(id: missing, for: ada.id)
    }
  }

  @Test(arguments: StoreFactory.all)
  func brokenRulesAreRejectedBeforeStoring(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    var habit = try await addHabit(store, for: ada)
    habit.name = "   "
    await #expect(throws: StoreError.self) { try await store.updateHabit(habit, for: ada.id) }
    habit.name = "Read"
    habit.frequency = .weekly(targetPerWeek: 7)
    await #expect(throws: StoreError.self) { try await store.createHabit(habit, for: ada.id) }
    #expect(try await store.habit(id: habit.id, for: ada.id).frequency == .daily)
  }

  @Test(arguments: StoreFactory.all)
  func listsAreOrderedAndHideArchivedUnlessAsked(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let c = try await addHabit(store, for: ada, "C", sortOrder: 0)
    let b = try await addHabit(store, for: ada, "B", sortOrder: 1)
    let a = try await addHabit(store, for: ada, "A", sortOrder: 1)
    let old = try await addHabit(store, for: ada, "Old", sortOrder: -1, archived: true)
    #expect(try await store.habits(for: ada.id, includingArchived: false) == [c, a, b])
    #expect(try await store.habits(for: ada.id, includingArchived: true) == [old, c, a, b])
    let nobody = UUID()
    await #expect(throws: StoreError.notFound(.user(nobody))) {
      try await store.habits(for: nobody, includingArchived: true)
    }
  }

  @Test(arguments: StoreFactory.all)
  func updateReplacesEveryField(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let habit = try await addHabit(store, for: ada)
    var changed = habit
    changed.name = "Read more"
    changed.icon = "book"
    changed.color = try HexColor(parsing: "#0F0")
    changed.group = "Mind"
    changed.createdDay = day("2025-06-01")
    changed.frequency = .weekly(targetPerWeek: 6)
    changed.reminder = .single(try WallTime(hour: 21))
    changed.sortOrder = 12
    #expect(try await store.updateHabit(changed, for: ada.id) == changed)
    #expect(try await store.habit(id: habit.id, for: ada.id) == changed)
    changed.icon = nil
    changed.group = nil
    changed.reminder = .none
    #expect(try await store.updateHabit(changed, for: ada.id) == changed)
    #expect(try await store.habit(id: habit.id, for: ada.id) == changed)

    let stranger = makeHabit()
    await #expect(throws: StoreError.notFound(.habit(stranger.id))) {
      try await store.updateHabit(stranger, for: ada.id)
    }
  }

  @Test(arguments: StoreFactory.all)
  func archivingHidesAndKeepsEntries(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let habit = try await addHabit(store, for: ada)
    try await store.setDay(day("2026-01-02"), of: habit.id, to: .done, for: ada.id)
    let archived = try await store.archiveHabit(id: habit.id, for: ada.id)
    #expect(archived.archived)
    #expect(try await store.habits(for: ada.id, includingArchived: false).isEmpty)
    #expect(try await store.entries(of: habit.id, for: ada.id).count == 1)
    #expect(try await store.setArchived(false, habit: habit.id, for: ada.id) == habit)
    #expect(try await store.habits(for: ada.id, includingArchived: false) == [habit])
    let missing = UUID()
    await #expect(throws: StoreError.notFound(.habit(missing))) {
      try await store.archiveHabit(id: missing, for: ada.id)
    }
  }

  @Test(arguments: StoreFactory.all)
  func deleteTakesEntriesAndDeliveriesWithIt(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let habit = try await addHabit(store, for: ada)
    let kept = try await addHabit(store, for: ada, "Kept")
    try await store.setDays(days("2026-01-02", "2026-01-03"), of: habit.id, to: .done, note: "x", for: ada.id)
    try await store.setDay(day("2026-01-02"), of: kept.id, to: .done, for: ada.id)
    let key = ReminderOccurrenceKey(habitID: habit.id, day: day("2026-01-02"), time: try WallTime(hour: 8))
    #expect(try await store.recordDelivery(key, sentAt: instant("2026-01-02T07:00:00Z"), for: ada.id))

    try await store.deleteHabit(id: habit.id, for: ada.id)
    await #expect(throws: StoreError.notFound(.habit(habit.id))) {
      try await store.habit(id: habit.id, for: ada.id)
    }
    await #expect(throws: StoreError.notFound(.habit(habit.id))) {
      try await store.entries(of: habit.id, for: ada.id)
    }
    await #expect(throws: StoreError.notFound(.habit(habit.id))) {
      try await store.deleteHabit(id: habit.id, for: ada.id)
    }
    let all = try await store.entries(in: day("2026-01-01")...day("2026-12-31"), for: ada.id)
    #expect(Array(all.keys) == [kept.id])
    #expect(try await store.delivery(key, for: ada.id) == nil)

    // The same id made again starts empty: nothing of the old habit survived.
    _ = try await store.createHabit(habit, for: ada.id)
    #expect(try await store.entries(of: habit.id, for: ada.id).isEmpty)
  }

  @Test(arguments: StoreFactory.all)
  func reorderPutsNamedHabitsFirstAndRenumbersAll(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let a = try await addHabit(store, for: ada, "A", sortOrder: 0)
    let b = try await addHabit(store, for: ada, "B", sortOrder: 5)
    let c = try await addHabit(store, for: ada, "C", sortOrder: 7, archived: true)
    let d = try await addHabit(store, for: ada, "D", sortOrder: 9)

    let reordered = try await store.reorderHabits([d.id, b.id], for: ada.id)
    #expect(reordered.map(\.id) == [d.id, b.id, a.id, c.id])
    #expect(reordered.map(\.sortOrder) == [0, 1, 2, 3])
    #expect(try await store.habits(for: ada.id, includingArchived: true) == reordered)
    #expect(try await store.habits(for: ada.id, includingArchived: false).map(\.id) == [d.id, b.id, a.id])

    let before = try await store.habits(for: ada.id, includingArchived: true)
    await #expect(throws: StoreError.self) { try await store.reorderHabits([a.id, a.id], for: ada.id) }
    let stranger = UUID()
    await #expect(throws: StoreError.notFound(.habit(stranger))) {
      try await store.reorderHabits([a.id, stranger], for: ada.id)
    }
    #expect(try await store.habits(for: ada.id, includingArchived: true) == before)
    #expect(try await store.reorderHabits([], for: ada.id) == before)
  }
}
