import TallyCore

extension Day {
  /// Every day a store can hold, for reads that want "all of them" through a range API.
  public static let allTime = Day(year: 1, month: 1, day: 1)!...Day(year: 9999, month: 12, day: 31)!

  /// Refuses a day before ``allTime``, which every face and sync check before writing: such a
  /// day would be stored, then missed by every read of all of a user's days. (No text a
  /// parser takes is after it.)
  public static func checkKept(_ day: Day, field: String = "day") throws(ValidationError) {
    guard day >= allTime.lowerBound else {
      throw ValidationError(
        field: field, rule: "\(day) is before \(allTime.lowerBound), the first day Tally keeps", kind: .tooEarly,
        values: ["day": "\(day)"])
    }
  }
}

/// A range of days someone typed or sent, checked the same way everywhere.
public enum DaySpan {
  /// The most days one range may hold: a century, so a typo cannot ask for millions.
  public static let maxLength = 36_525

  /// Every day from `first` through `last`; `field` names the input in the error.
  public static func days(from first: Day, through last: Day, field: String) throws(ValidationError) -> [Day] {
    guard first <= last else {
      throw ValidationError(field: field, rule: "\(first)..\(last) must not end before it starts", kind: .endsBeforeStart)
    }
    guard first.days(to: last) < maxLength else {
      throw ValidationError(field: field, rule: "\(first)..\(last) is longer than a century")
    }
    return Array(first...last)
  }
}
