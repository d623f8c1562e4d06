import Foundation

/// How precisely a store keeps instants: to the millisecond, in UTC.
///
/// Every implementation rounds an instant the same way before keeping it, so what is read back
/// is equal (`==`) to what a second read returns, whichever store holds it.
public enum StoredInstant {
  /// The nearest whole millisecond since 1970.
  public static func milliseconds(_ date: Date) -> Int64 {
    Int64((date.timeIntervalSince1970 * 1000).rounded())
  }

  public static func date(milliseconds: Int64) -> Date {
    Date(timeIntervalSince1970: Double(milliseconds) / 1000)
  }

  /// `date` rounded to the nearest millisecond.
  public static func normalized(_ date: Date) -> Date {
    self.date(milliseconds: milliseconds(date))
  }
}
