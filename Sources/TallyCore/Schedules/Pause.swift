import Foundation

/// Days a person is away from one habit, or from all of them (a vacation): from `from`
/// through `until`, or on until resumed when `until` is `nil`. Paused days are neutral for
/// every statistic unless completed, and never due (SPEC 2).
public struct Pause: Identifiable, Hashable, Codable, Sendable {
  public var id: UUID
  /// The habit paused; `nil` pauses every habit of the user.
  public var habitID: UUID?
  public var from: Day
  /// The last paused day; `nil` while the pause has no end yet.
  public var until: Day?

  /// Days a pause may cover: none before 1970 or after 9999, as for every stored day.
  public static let earliest = Day(year: 1970, month: 1, day: 1)!
  public static let latest = Day(year: 9999, month: 12, day: 31)!

  private enum CodingKeys: String, CodingKey { case id, habitID = "habitId", from, until }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    do {
      try self.init(
        id: c.decode(UUID.self, forKey: .id), habitID: c.decodeIfPresent(UUID.self, forKey: .habitID),
        from: c.decode(Day.self, forKey: .from), until: c.decodeIfPresent(Day.self, forKey: .until))
    } catch let error as ValidationError {
      throw DecodingError.dataCorruptedError(
        forKey: error.field == "from" ? .from : .until, in: c, debugDescription: error.description)
    }
  }

  public func encode(to encoder: any Encoder) throws {
    // Ids as lower-case text, as every other id Tally writes.
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(id.uuidString.lowercased(), forKey: .id)
    try c.encode(habitID?.uuidString.lowercased(), forKey: .habitID)
    try c.encode(from, forKey: .from)
    try c.encode(until, forKey: .until)
  }

  public init(id: UUID, habitID: UUID?, from: Day, until: Day?) throws(ValidationError) {
    (self.id, self.habitID, self.from, self.until) = (id, habitID, from, until)
    _ = try validated()
  }

  public func validated() throws(ValidationError) -> Pause {
    guard Pause.earliest <= from, from <= Pause.latest else {
      throw ValidationError(field: "from", rule: "must be from 1970-01-01 to 9999-12-31, not \(from)")
    }
    if let until {
      guard until <= Pause.latest else {
        throw ValidationError(field: "until", rule: "must be 9999-12-31 or earlier, not \(until)")
      }
      guard from <= until else {
        throw ValidationError(field: "until", rule: "must be on or after from (\(from)), not \(until)", kind: .endsBeforeStart)
      }
    }
    return self
  }

  /// The days paused; an open pause runs to the last day there is.
  public var days: ClosedRange<Day> { from...(until ?? Pause.latest) }

  /// Whether this pause applies to `habit`: its own, or one of all habits.
  public func covers(habit: UUID) -> Bool { habitID == nil || habitID == habit }

  /// The pause ended by a resume on `day`: its last paused day becomes the day before.
  /// Resuming on or before the first paused day leaves nothing to keep (`nil`).
  public func resumed(on day: Day) -> Pause? {
    guard from < day else { return nil }
    var ended = self
    ended.until = min(until ?? Pause.latest, day.adding(days: -1))
    return ended
  }

  /// The first pause in `pauses` (one list of the same habit or of all habits) that shares a
  /// day with this one, leaving out this pause's own earlier version.
  public func overlapping(_ pauses: some Sequence<Pause>) -> Pause? {
    pauses.first { $0.id != id && $0.habitID == habitID && $0.days.overlaps(days) }
  }
}
