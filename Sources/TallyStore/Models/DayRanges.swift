import TallyCore

extension Day {
  /// Every day a store can hold, for reads that want "all of them" through a range API.
  public static let allTime = Day(year: 1, month: 1, day: 1)!...Day(year: 9999, month: 12, day: 31)!
}
