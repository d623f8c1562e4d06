import Foundation
import TallyCore
import TallyStore

/// `[DAY] TEXT` arguments: the first is a day when it reads as one.
enum DayAndText {
  /// A single day (`YYYY-MM-DD`, `today`, `yesterday`), or `nil` when `text` is not one. Text
  /// shaped like a date but naming none (`2026-02-30`) is an error rather than journal text.
  static func day(_ text: String) throws(TallyCore.ValidationError) -> DayArgument? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if ["today", "yesterday"].contains(trimmed.lowercased()) {
      return try DayArgument(parsing: trimmed)
    }
    let shape = trimmed.utf8.count == 10
      && trimmed.enumerated().allSatisfy { index, c in index == 4 || index == 7 ? c == "-" : c.isASCII && c.isNumber }
    return shape ? try DayArgument(parsing: trimmed) : nil
  }

  /// Journal and chat hold days up to today.
  static func checkNotFuture(_ day: Day, today: Day, what: String) throws {
    guard day <= today else {
      throw CommandFailure(
        "The day \(day) is in the future (today is \(today)); \(what) holds days up to today.")
    }
  }
}
