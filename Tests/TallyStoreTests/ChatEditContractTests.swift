import Foundation
import TallyCore
import TallyStore
import Testing

@Suite struct ChatEditContractTests {
  func message(_ day: String, _ text: String, at: String) throws -> ChatMessage {
    try ChatMessage(id: UUID(), day: Day(day)!, role: .user, text: text, sentAt: instant(at))
  }

  @Test(arguments: StoreFactory.all)
  func anEditKeepsDayRoleTimeAndPlace(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let first = try message("2026-03-01", "first", at: "2026-03-01T08:00:00Z")
    let second = try message("2026-03-01", "secnd", at: "2026-03-01T09:00:00Z")
    for m in [first, second] { try await store.addChatMessage(m, for: ada.id) }
    let edited = try await store.updateChatMessage(id: second.id, text: "second", for: ada.id)
    #expect(edited == (try ChatMessage(id: second.id, day: second.day, role: .user, text: "second", sentAt: second.sentAt)))
    #expect(try await store.chatMessages(on: first.day, for: ada.id).map(\.text) == ["first", "second"])

    try await store.deleteChatMessage(id: first.id, for: ada.id)
    #expect(try await store.chatMessages(on: first.day, for: ada.id) == [edited])
    await #expect(throws: StoreError.notFound(.chatMessage(first.id))) {
      try await store.deleteChatMessage(id: first.id, for: ada.id)
    }
  }

  @Test(arguments: StoreFactory.all)
  func badTextAndOtherUsersMessagesChangeNothing(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let bob = try await makeUser(store, "bob")
    let adas = try message("2026-03-01", "mine", at: "2026-03-01T08:00:00Z")
    try await store.addChatMessage(adas, for: ada.id)
    await #expect(throws: StoreError.notFound(.chatMessage(adas.id))) {
      try await store.updateChatMessage(id: adas.id, text: "theirs now", for: bob.id)
    }
    await #expect(throws: StoreError.notFound(.chatMessage(adas.id))) {
      try await store.deleteChatMessage(id: adas.id, for: bob.id)
    }
    await #expect(throws: StoreError.self) {
      try await store.updateChatMessage(id: adas.id, text: "   ", for: ada.id)
    }
    #expect(try await store.chatMessages(on: adas.day, for: ada.id) == [adas])
  }

  @Test(arguments: StoreFactory.all)
  func journalSearchIgnoresCaseAndAccentsNewestFirst(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let bob = try await makeUser(store, "bob")
    for (d, text) in [("2025-03-01", "Coffee at the Café"), ("2026-03-01", "no coffee"), ("2026-03-02", "tea")] {
      try await store.setJournalEntry(JournalEntry(day: day(d), text: text), for: ada.id)
    }
    try await store.setJournalEntry(JournalEntry(day: day("2026-03-03"), text: "bob's cafe"), for: bob.id)
    #expect(try await store.searchJournal("COFFEE", for: ada.id).map(\.day) == days("2026-03-01", "2025-03-01"))
    #expect(try await store.searchJournal(" cafe ", for: ada.id).map(\.day) == days("2025-03-01"))
    #expect(try await store.searchJournal("  ", for: ada.id).isEmpty)
    #expect(try await store.searchJournal("zebra", for: ada.id).isEmpty)
  }
}
