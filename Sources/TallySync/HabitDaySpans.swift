/// The days some entry rows name, kept as each habit's first and last (`YYYY-MM-DD`, which
/// sorts as text): what a store that keeps a summary per habit and month writes again after
/// writing the rows themselves.
public struct HabitDaySpans: Hashable, Sendable {
  public private(set) var spans: [String: ClosedRange<String>] = [:]

  public init() {}

  public var isEmpty: Bool { spans.isEmpty }

  public mutating func add(habit: some StringProtocol, day: some StringProtocol) {
    let day = String(day)
    let key = String(habit)
    if let span = spans[key] {
      if day < span.lowerBound {
        spans[key] = day...span.upperBound
      } else if day > span.upperBound {
        spans[key] = span.lowerBound...day
      }
    } else {
      spans[key] = day...day
    }
  }
}
