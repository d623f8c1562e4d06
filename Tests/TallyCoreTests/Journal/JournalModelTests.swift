import Foundation
import TallyCore
import Testing

@Suite struct JournalModelTests {
  typealias F = JournalFixtures

  @Test func entryKeepsTextAsWritten() throws {
    let entry = try JournalEntry(day: F.day("2024-02-29"), text: "  Leap day.\n\nQuiet.\n")
    #expect(entry.text == "  Leap day.\n\nQuiet.\n")
  }

  @Test func entryRejectsBlankText() {
    for blank in ["", " ", "\n\t  \n"] {
      #expect(throws: ValidationError.self) { try JournalEntry(day: F.day("2026-01-01"), text: blank) }
    }
    let error = #expect(throws: ValidationError.self) {
      try JournalEntry(day: F.day("2026-01-01"), text: " ")
    }
    #expect(error?.field == "text")
    #expect(error?.description.contains("must contain some text") == true)
  }

  /// SQLite's C interface stops reading text at NUL, so text holding one would come back cut.
  @Test func textHoldingNulIsRefused() {
    let rule = ValidationError(field: "text", rule: "must not contain the NUL character (U+0000)")
    #expect(throws: rule) { try JournalEntry(day: F.day("2026-01-01"), text: "before\u{0}after") }
    #expect(throws: rule) {
      try ChatMessage(id: UUID(), day: F.day("2026-01-01"), role: .user, text: "\u{0}", sentAt: Date(timeIntervalSince1970: 0))
    }
  }

  @Test func entryLengthLimitCountsCharacters() throws {
    let day = F.day("2026-01-01")
    _ = try JournalEntry(day: day, text: String(repeating: "é", count: JournalEntry.maxCharacters))
    #expect(throws: ValidationError(
        field: "text", rule: "must be at most 100000 characters (this one has 100001)", kind: .tooLong,
        values: ["max": "100000", "length": "100001"])) {
      try JournalEntry(day: day, text: String(repeating: "a", count: JournalEntry.maxCharacters + 1))
    }
    // One family emoji is one character, however many scalars it holds.
    _ = try JournalEntry(day: day, text: String(repeating: "👨‍👩‍👧", count: JournalEntry.maxCharacters))
  }

  @Test func chatMessageRejectsBlankAndOverlongText() throws {
    let day = F.day("2026-01-01")
    let at = Date(timeIntervalSince1970: 0)
    for role in ChatRole.allCases {
      #expect(throws: ValidationError.self) { try ChatMessage(id: UUID(), day: day, role: role, text: "  ", sentAt: at) }
      #expect(throws: ValidationError.self) {
        try ChatMessage(
          id: UUID(), day: day, role: role, text: String(repeating: "x", count: ChatMessage.maxCharacters + 1), sentAt: at)
      }
      _ = try ChatMessage(
        id: UUID(), day: day, role: role, text: String(repeating: "x", count: ChatMessage.maxCharacters), sentAt: at)
    }
  }

  @Test func messageSentInTheSmallHoursBelongsToTheDayBefore() throws {
    // 01:30 on the New York spring-forward day, with the day switching at 02:00.
    let calendar = F.calendar("America/New_York", daySwitchHour: 2)
    let message = try ChatMessage(
      id: UUID(), role: .user, text: "Late night", sentAt: F.instant("2026-03-08T01:30:00-05:00"),
      calendar: calendar)
    #expect(message.day == F.day("2026-03-07"))
    let afterSwitch = try ChatMessage(
      id: UUID(), role: .user, text: "Morning", sentAt: F.instant("2026-03-08T03:00:00-04:00"),
      calendar: calendar)
    #expect(afterSwitch.day == F.day("2026-03-08"))
  }

  @Test func wireFormatUsesCamelCaseAndTextDays() throws {
    let id = try #require(UUID(uuidString: "6F9619FF-8B86-D011-B42D-00CF4FC964FF"))
    let message = try ChatMessage(
      id: id, day: F.day("2024-02-29"), role: .assistant, text: "Hi", sentAt: Date(timeIntervalSince1970: 0))
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    encoder.dateEncodingStrategy = .iso8601
    let text = String(decoding: try encoder.encode(message), as: UTF8.self)
    #expect(text == #"{"day":"2024-02-29","id":"6F9619FF-8B86-D011-B42D-00CF4FC964FF","role":"assistant","sentAt":"1970-01-01T00:00:00Z","text":"Hi"}"#)
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    #expect(try decoder.decode(ChatMessage.self, from: Data(text.utf8)) == message)
    #expect(try F.json(F.entry(F.day("2026-03-08"))) == #"{"day":"2026-03-08","text":"Dear diary"}"#)
  }

  @Test func decodingAppliesTheSameRules() {
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(JournalEntry.self, from: Data(#"{"day":"2026-03-08","text":"   "}"#.utf8))
    }
    let blankChat = #"{"day":"2026-03-08","id":"6F9619FF-8B86-D011-B42D-00CF4FC964FF","role":"user","sentAt":0,"text":""}"#
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(ChatMessage.self, from: Data(blankChat.utf8)) }
    let badRole = #"{"day":"2026-03-08","id":"6F9619FF-8B86-D011-B42D-00CF4FC964FF","role":"system","sentAt":0,"text":"x"}"#
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(ChatMessage.self, from: Data(badRole.utf8)) }
  }

  @Test func activityCountsOnlyUserMessagesAsChat() {
    let monday = F.day("2025-09-01")
    let tuesday = F.day("2025-09-02")
    let activity = F.activity(chat: [monday], assistantOnly: [tuesday], entries: [tuesday])
    #expect(activity.hasChat(monday))
    #expect(!activity.hasChat(tuesday))
    #expect(activity.hasEntry(tuesday))
    #expect(!activity.hasEntry(monday))
    // A user message beside assistant ones is enough.
    let mixed = JournalActivity(entries: [], messages: [F.message(tuesday, .assistant), F.message(tuesday)])
    #expect(mixed.chatDays == [tuesday])
  }
}
