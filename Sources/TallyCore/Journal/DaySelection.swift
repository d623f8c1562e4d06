/// The selected day and how it changes under taps, drags and the Today button (SPEC 5).
///
/// Every change is reported once, as the new day, and each report is worth one haptic
/// tick; anything that would select the day already selected reports nothing. So a drag
/// resting on a circle, wobbling inside it or crossing a gap (where the pointer is over no
/// day) stays silent, and coming back to an earlier day after another one reports again.
public struct DaySelection: Hashable, Sendable {
  public let today: Day
  public private(set) var selected: Day

  public init(today: Day, selected: Day? = nil) {
    self.today = today
    self.selected = selected ?? today
  }

  /// Feed this the day under the pointer on a tap and on every drag movement (`nil` when it
  /// is over no day). Returns the newly selected day, or `nil` when nothing changed.
  public mutating func point(at day: Day?) -> Day? {
    guard let day, day != selected else { return nil }
    selected = day
    return day
  }

  /// Shown only while some other day is selected.
  public var showsTodayButton: Bool { selected != today }

  /// What the Today button does.
  public mutating func returnToToday() -> Day? {
    point(at: today)
  }
}
