import Foundation
import TallyCore
import TallyStore
import Testing

@Suite struct JournalContractTests {
  @Test(arguments: StoreFactory.all)
  func entriesAreSetReplacedAndCleared(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let (d1, d2, d3) = (day("2026-03-01"), day("2026-03-02"), day("2026-03-03"))
    #expect(try await store.journalEntry(on: d1, for: ada.id) == nil)
    let text = "  Line one\n\n  indented\n"
    try await store.setJournalEntry(JournalEntry(day: d1, text: text), for: ada.id)
    #expect(try await store.journalEntry(on: d1, for: ada.id) == JournalEntry(day: d1, text: text))
    try await store.setJournalEntry(JournalEntry(day: d1, text: "Rewritten"), for: ada.id)
    try await store.setJournalEntry(JournalEntry(day: d3, text: "Third"), for: ada.id)
    #expect(try await store.journalEntries(in: d1...d3, for: ada.id) == [
      JournalEntry(day: d1, text: "Rewritten"), JournalEntry(day: d3, text: "Third"),
    ])
    #expect(try await store.journalEntries(in: d2...d2, for: ada.id).isEmpty)

    try await store.clearJournalEntry(on: d1, for: ada.id)
    try await store.clearJournalEntry(on: d1, for: ada.id)
    try await store.clearJournalEntry(on: d2, for: ada.id)
    #expect(try await store.journalEntries(in: d1...d3, for: ada.id).map(\.day) == [d3])

    let nobody = UUID()
    await #expect(throws: StoreError.notFound(.user(nobody))) {
      try await store.setJournalEntry(JournalEntry(day: d1, text: "x"), for: nobody)
    }
  }

  @Test(arguments: StoreFactory.all)
  func chatMessagesComeBackInTheOrderSent(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let d1 = day("2026-03-01")
    let d2 = day("2026-03-02")
    func message(_ day: Day, _ role: ChatRole, _ text: String, _ at: String) throws -> ChatMessage {
      try ChatMessage(id: UUID(), day: day, role: role, text: text, sentAt: instant(at))
    }
    let late = try message(d1, .assistant, "late", "2026-03-01T21:00:00Z")
    let early = try message(d1, .user, "early", "2026-03-01T08:00:00Z")
    let tieFirst = try message(d1, .user, "tie 1", "2026-03-01T12:00:00Z")
    let tieSecond = try message(d1, .assistant, "tie 2", "2026-03-01T12:00:00Z")
    // Filed under the day before the instant it was sent, as `tally chat DAY` may do.
    let filed = try message(d2, .user, "filed", "2026-02-01T00:00:00Z")
    for m in [late, early, tieFirst, tieSecond, filed] {
      try await store.addChatMessage(m, for: ada.id)
    }
    #expect(try await store.chatMessages(on: d1, for: ada.id) == [early, tieFirst, tieSecond, late])
    #expect(try await store.chatMessages(in: d1...d2, for: ada.id) == [early, tieFirst, tieSecond, late, filed])
    #expect(try await store.chatMessages(on: day("2026-03-03"), for: ada.id).isEmpty)

    await #expect(throws: StoreError.conflict("a chat message with id \(early.id.storeText) already exists")) {
      try await store.addChatMessage(early, for: ada.id)
    }
  }

  @Test(arguments: StoreFactory.all)
  func instantsAreKeptToTheMillisecond(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let sent = Date(timeIntervalSince1970: 1_772_958_600.123_456_7)
    let message = try ChatMessage(id: UUID(), day: day("2026-03-08"), role: .user, text: "hi", sentAt: sent)
    try await store.addChatMessage(message, for: ada.id)
    let stored = try await store.chatMessages(on: message.day, for: ada.id)
    #expect(stored.map(\.sentAt) == [StoredInstant.normalized(sent)])
    #expect(StoredInstant.milliseconds(stored[0].sentAt) == 1_772_958_600_123)
  }

  @Test(arguments: StoreFactory.all)
  func activityCountsEntriesAndUserChat(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let (d1, d2, d3, d4) = (day("2026-03-01"), day("2026-03-02"), day("2026-03-03"), day("2026-03-04"))
    try await store.setJournalEntry(JournalEntry(day: d1, text: "entry"), for: ada.id)
    try await store.setJournalEntry(JournalEntry(day: d4, text: "outside"), for: ada.id)
    try await store.addChatMessage(
      ChatMessage(id: UUID(), day: d2, role: .user, text: "q", sentAt: instant("2026-03-02T09:00:00Z")),
      for: ada.id)
    try await store.addChatMessage(
      ChatMessage(id: UUID(), day: d3, role: .assistant, text: "a", sentAt: instant("2026-03-03T09:00:00Z")),
      for: ada.id)
    let activity = try await store.journalActivity(in: d1...d3, for: ada.id)
    #expect(activity == JournalActivity(entryDays: [d1], chatDays: [d2]))
  }

  /// Two devices that add the same messages in opposite orders show them in one order: the
  /// instant, then the user's before the assistant's, then the id (the convergence property
  /// found two phones' messages of one millisecond listed differently).
  @Test(arguments: StoreFactory.all)
  func messagesOfOneInstantHaveOneOrderWhateverOrderTheyCameIn(_ factory: StoreFactory) async throws {
    let at = instant("2026-03-02T09:00:00Z")
    let messages = try [ChatRole.assistant, .user, .user, .assistant, .user].map { role in
      try ChatMessage(id: UUID(), day: day("2026-03-02"), role: role, text: "\(role)", sentAt: at)
    }
    var orders: [[ChatMessage]] = []
    for arrival in [messages, messages.reversed()] {
      let store = try await factory.make()
      let ada = try await makeUser(store)
      for message in arrival { try await store.addChatMessage(message, for: ada.id) }
      orders.append(try await store.chatMessages(on: day("2026-03-02"), for: ada.id))
    }
    #expect(orders[0] == orders[1])
    #expect(orders[0].map(\.role) == [.user, .user, .user, .assistant, .assistant])
    #expect(orders[0].prefix(3).map(\.id.storeText) == orders[0].prefix(3).map(\.id.storeText).sorted())
  }
}
