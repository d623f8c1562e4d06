import Foundation
import TallyCore

/// Shorthand shared by the journal suites.
enum JournalFixtures {
  static let zoneNames = [
    "America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Pacific/Apia", "Asia/Kolkata",
  ]

  static func day(_ text: String) -> Day {
    Day(text)!
  }

  static func calendar(
    _ zone: String = "Europe/Berlin", daySwitchHour: Int = 0, firstWeekday: Weekday = .sunday
  ) -> DayCalendar {
    try! DayCalendar(
      timeZone: TimeZone(identifier: zone)!, daySwitchHour: daySwitchHour, firstWeekday: firstWeekday)
  }

  static func instant(_ rfc3339: String) -> Date {
    try! Date(rfc3339, strategy: .iso8601)
  }

  static func message(_ day: Day, _ role: ChatRole = .user, text: String = "Hello") -> ChatMessage {
    try! ChatMessage(id: UUID(), day: day, role: role, text: text, sentAt: Date(timeIntervalSince1970: 0))
  }

  static func entry(_ day: Day) -> JournalEntry {
    try! JournalEntry(day: day, text: "Dear diary")
  }

  /// Activity with user chat on `chat` days, assistant-only messages on `assistantOnly` days
  /// and entries on `entries` days, built the way the store hands it over.
  static func activity(chat: [Day] = [], assistantOnly: [Day] = [], entries: [Day] = []) -> JournalActivity {
    JournalActivity(
      entries: entries.map(entry),
      messages: chat.map { message($0) } + assistantOnly.map { message($0, .assistant) })
  }

  static func json(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }
}
