import Foundation

/// Reading values out of `JSONSerialization`'s objects, for the JSON exports of other apps.
enum JSONValue {
  /// A JSON number without a fraction, in Int's range.
  static func wholeNumber(_ value: Any?) -> Int? {
    guard let number = value as? NSNumber, let whole = Int(exactly: number.doubleValue) else { return nil }
    return whole
  }
}
