import Foundation
import TallyCore
import TallyLocalization

/// Turning stored text back into values, with errors that say which row is damaged: every
/// store keeps ids, days and instants as the same text.
public enum Stored {
  public static func uuid(_ text: String, _ what: String) throws(StoreError) -> UUID {
    guard let id = UUID(uuidString: text) else { throw .corrupt("\(what) '\(text)' is not a UUID") }
    return id
  }

  public static func day(_ text: String, _ what: String) throws(StoreError) -> Day {
    guard let day = Day(text) else { throw .corrupt("\(what) '\(text)' is not a day YYYY-MM-DD") }
    return day
  }

  public static func instant(_ text: String, _ what: String) throws(StoreError) -> Date {
    guard let date = InstantText.date(text) else {
      throw .corrupt("\(what) '\(text)' is not an instant like 2026-03-08T06:30:00.000Z")
    }
    return date
  }

  /// A stored language setting: `nil` is "as the browser asks".
  public static func language(_ code: String?, _ what: String) throws(StoreError) -> Language? {
    guard let code else { return nil }
    guard let language = Language(rawValue: code) else { throw .corrupt("\(what) has language '\(code)'") }
    return language
  }

  public static func valid<T>(_ what: String, _ body: () throws(ValidationError) -> T) throws(StoreError)
    -> T
  {
    do {
      return try body()
    } catch {
      throw .corrupt("\(what): \(error.field) \(error.rule)")
    }
  }
}
