import Foundation
import TallyCore
import TallyStore
import Testing

/// User B can neither see nor change anything of user A's, even knowing its ids.
@Suite struct IsolationContractTests {
  @Test(arguments: StoreFactory.all)
  func anotherUsersHabitLooksMissing(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store, "ada")
    let bob = try await makeUser(store, "bob")
    let habit = try await addHabit(store, for: ada)
    try await store.setDay(day("2026-03-01"), of: habit.id, to: .done, note: "mine", for: ada.id)
    let notFound = StoreError.notFound(.habit(habit.id))

    await #expect(throws: notFound) { try await store.habit(id: habit.id, for: bob.id) }
    var renamed = habit
    renamed.name = "Hijacked"
    await #expect(throws: notFound) { try await store.updateHabit(renamed, for: bob.id) }
    await #expect(throws: notFound) { try await store.archiveHabit(id: habit.id, for: bob.id) }
    await #expect(throws: notFound) { try await store.deleteHabit(id: habit.id, for: bob.id) }
    await #expect(throws: notFound) { try await store.reorderHabits([habit.id], for: bob.id) }
    await #expect(throws: notFound) {
      try await store.setDay(day("2026-03-01"), of: habit.id, to: .nothing, for: bob.id)
    }
    await #expect(throws: notFound) { try await store.entries(of: habit.id, for: bob.id) }
    let key = ReminderOccurrenceKey(habitID: habit.id, day: day("2026-03-01"), time: try WallTime(hour: 8))
    await #expect(throws: notFound) {
      try await store.recordDelivery(key, sentAt: instant("2026-03-01T07:00:00Z"), for: bob.id)
    }
    await #expect(throws: StoreError.self) { try await store.createHabit(habit, for: bob.id) }

    #expect(try await store.habits(for: bob.id, includingArchived: true).isEmpty)
    #expect(try await store.entries(in: day("2026-01-01")...day("2026-12-31"), for: bob.id).isEmpty)
    #expect(try await store.habit(id: habit.id, for: ada.id) == habit)
    #expect(try await store.entries(of: habit.id, for: ada.id) == [
      HabitEntry(day: day("2026-03-01"), status: .done, note: "mine")
    ])
  }

  @Test(arguments: StoreFactory.all)
  func journalsShowsAndPricesAreEachUsersOwn(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store, "ada")
    let bob = try await makeUser(store, "bob")
    let d = day("2026-03-01")
    try await store.setJournalEntry(JournalEntry(day: d, text: "Ada's day"), for: ada.id)
    try await store.addChatMessage(
      ChatMessage(id: UUID(), day: d, role: .user, text: "hi", sentAt: instant("2026-03-01T10:00:00Z")),
      for: ada.id)
    let series = show("Severance", providers: ["US": [provider(350, "Apple TV+")]])
    try await store.saveShow(series, for: ada.id)
    try await store.saveEpisodes([episode(series, 2, 1, "2026-03-01")], for: ada.id)
    try await store.setPrice(price("US", 350, "9.99", "USD"), for: ada.id)

    #expect(try await store.journalEntry(on: d, for: bob.id) == nil)
    #expect(try await store.chatMessages(on: d, for: bob.id).isEmpty)
    #expect(try await store.journalActivity(in: d...d, for: bob.id) == JournalActivity())
    try await store.clearJournalEntry(on: d, for: bob.id)
    #expect(try await store.journalEntry(on: d, for: ada.id)?.text == "Ada's day")

    let notFound = StoreError.notFound(.show(series.id))
    await #expect(throws: notFound) { try await store.show(id: series.id, for: bob.id) }
    await #expect(throws: notFound) { try await store.episodes(of: series.id, for: bob.id) }
    await #expect(throws: notFound) { try await store.deleteShow(id: series.id, for: bob.id) }
    await #expect(throws: notFound) {
      try await store.saveEpisodes([episode(series, 2, 2, "2026-03-08")], for: bob.id)
    }
    await #expect(throws: StoreError.conflict("a show with id \(series.id.storeText) already exists")) {
      try await store.saveShow(show("Mine now", providers: [:]).withID(series.id), for: bob.id)
    }
    #expect(try await store.shows(for: bob.id).isEmpty)
    #expect(try await store.episodes(airingIn: d...d, for: bob.id).isEmpty)
    #expect(try await store.priceTable(for: bob.id).isEmpty)
    try await store.removePrice(country: "US", providerID: 350, for: bob.id)

    #expect(try await store.show(id: series.id, for: ada.id) == series)
    #expect(try await store.episodes(of: series.id, for: ada.id).count == 1)
    #expect(try await store.priceTable(for: ada.id).prices.count == 1)
  }
}

extension Show {
  func withID(_ id: UUID) -> Show {
    try! Show(id: id, title: title, status: status, providers: providers)
  }
}
