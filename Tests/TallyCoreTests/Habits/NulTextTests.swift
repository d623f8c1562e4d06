import Foundation
import TallyCore
import Testing

/// SQLite reads text up to its first NUL, so a NUL would silently cut a stored name short.
@Suite struct HabitNulTextTests {
  @Test func aHabitNameOrGroupWithNulIsRefused() {
    #expect(throws: ValidationError(field: "name", rule: "must not contain the NUL character (U+0000)")) {
      try Habit(id: UUID(), name: "Re\u{0}ad", createdDay: Day("2026-03-01")!)
    }
    #expect(throws: ValidationError(field: "group", rule: "must not contain the NUL character (U+0000)")) {
      try Habit(id: UUID(), name: "Read", group: "mor\u{0}ning", createdDay: Day("2026-03-01")!)
    }
  }
}
