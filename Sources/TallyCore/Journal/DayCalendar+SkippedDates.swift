import Foundation

extension DayCalendar {
  /// Whether any instant belongs to `day` under this calendar's rules.
  ///
  /// False only for a date the time zone jumped over, such as 30 December 2011 in
  /// Pacific/Apia; nobody living there could write on it, so a journal streak steps over it
  /// rather than breaking. Every day that exists spans at least an hour of wall clock, so
  /// sampling quarter hours for two days either side of its noon cannot miss it.
  public func hasInstants(on day: Day) -> Bool {
    let noonParts = DateComponents(year: day.year, month: day.month, day: day.day, hour: 12)
    guard let noon = gregorian.date(from: noonParts) else { return true }
    if self.day(containing: noon) == day { return true }
    let quarterHour: TimeInterval = 15 * 60
    let twoDays = 2 * 24 * 4
    return (-twoDays...twoDays).contains { step in
      self.day(containing: noon.addingTimeInterval(Double(step) * quarterHour)) == day
    }
  }
}
