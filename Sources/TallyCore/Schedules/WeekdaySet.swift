/// The weekdays a habit is scheduled on: 1 to 6 of the 7 (all seven is a daily habit).
/// Held as seven bits, Sunday the lowest, so a day's check is one shift and mask.
public struct WeekdaySet: Hashable, Sendable, Sequence {
  public let bits: UInt8

  public static let sizes = 1...6

  /// The days in any order; a day named twice is an error, not a silent merge.
  public init(_ days: [Weekday]) throws(ValidationError) {
    var bits: UInt8 = 0
    for day in days {
      let bit: UInt8 = 1 << (day.rawValue - 1)
      guard bits & bit == 0 else {
        throw ValidationError(field: "weekdays", rule: "names \(day.name) twice")
      }
      bits |= bit
    }
    try self.init(bits: bits)
  }

  /// From the stored seven bits (Sunday = 1, Monday = 2, …, Saturday = 64).
  public init(bits: UInt8) throws(ValidationError) {
    guard bits & 0x80 == 0 else {
      throw ValidationError(field: "weekdays", rule: "must be bits of 1 (Sunday) to 64 (Saturday), not \(bits)")
    }
    self.bits = bits
    guard WeekdaySet.sizes.contains(count) else {
      throw ValidationError(
        field: "weekdays",
        rule: count == 0 ? "must name at least one day" : "must name 1 to 6 days (all 7 is a daily habit)")
    }
  }

  public func contains(_ day: Weekday) -> Bool {
    bits & (1 << (day.rawValue - 1)) != 0
  }

  public var count: Int { bits.nonzeroBitCount }

  /// In calendar order from Sunday; callers that show them start from the user's first weekday.
  public func makeIterator() -> IndexingIterator<[Weekday]> {
    Weekday.allCases.filter(contains).makeIterator()
  }

  /// The days in the order of a week that starts on `first`.
  public func ordered(from first: Weekday) -> [Weekday] {
    sorted { $0.offset(from: first) < $1.offset(from: first) }
  }

  /// `mon,wed,fri`: the three-letter names the CLI takes, in the order of a week from Monday.
  public var shortText: String {
    ordered(from: .monday).map(\.shortName).joined(separator: ",")
  }

  /// Reads `mon,wed,fri`, `Mon Wed Fri` or full names, separated by commas or spaces.
  public init(parsing text: String, field: String = "weekdays") throws(ValidationError) {
    let words = text.split { $0 == "," || $0.isWhitespace }.map(String.init)
    var days: [Weekday] = []
    for word in words {
      guard let day = Weekday(name: word) ?? Weekday(shortName: word) else {
        throw ValidationError(
          field: field, rule: "names '\(word)', which is not a weekday (mon, tue, wed, thu, fri, sat, sun)")
      }
      days.append(day)
    }
    do {
      try self.init(days)
    } catch {
      throw ValidationError(field: field, rule: error.rule)
    }
  }
}

extension Weekday {
  /// `mon` … `sun`.
  public var shortName: String { String(name.prefix(3)) }

  public init?(shortName: String) {
    guard let match = Weekday.allCases.first(where: { $0.shortName == shortName.lowercased() }) else {
      return nil
    }
    self = match
  }
}

extension WeekdaySet: Codable {
  /// A JSON array of weekday names (`["monday", "wednesday", "friday"]`).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let days = try container.decode([Weekday].self)
    do {
      try self.init(days)
    } catch {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(Array(self))
  }
}
