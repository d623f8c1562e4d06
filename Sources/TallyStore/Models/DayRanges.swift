import TallyCore

extension Day {
  /// Every day a store can hold, for reads that want "all of them" through a range API.
  public static let allTime = Day(year: 1, month: 1, day: 1)!...Day(year: 9999, month: 12, day: 31)!
}

/// A range of days someone typed or sent, checked the same way everywhere.
public enum DaySpan {
  /// The most days one range may hold: a century, so a typo cannot ask for millions.
  public static let maxLength = 36_525

  /// Every day from `first` through `last`; `field` names the input in the error.
  public static func days(from first: Day, through last: Day, field: String) throws(ValidationError) -> [Day] {
    guard first <= last else {
      throw ValidationError(field: field, rule: "\(first)..\(last) must not end before it starts")
    }
    guard first.days(to: last) < maxLength else {
      throw ValidationError(field: field, rule: "\(first)..\(last) is longer than a century")
    }
    return Array(first...last)
  }
}
