/// Where a day lies relative to today: the base state every date circle starts from.
public enum DayTense: String, Hashable, Codable, Sendable {
  case past, today, future

  public init(_ day: Day, today: Day) {
    self = day < today ? .past : day == today ? .today : .future
  }

  /// For callers holding two flags. They cannot both hold for one day; if they do, `future`
  /// wins, as the design's precedence puts the future check first.
  public init(isToday: Bool, isFuture: Bool) {
    self = isFuture ? .future : isToday ? .today : .past
  }
}
