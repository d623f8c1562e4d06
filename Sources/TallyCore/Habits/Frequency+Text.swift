import Foundation

/// The short text a schedule reads as in the CLI, the web and import warnings, and parses from.
extension Frequency {
  /// `daily`, `3 a week`, `3 in 10 days`, `2 a month`, `mon, wed, fri`.
  public var text: String {
    switch self {
    case .daily: "daily"
    case .weekly(let target): "\(target) a week"
    case .timesInDays(let times, let days): "\(times) in \(days) days"
    case .monthly(let times): "\(times) a month"
    case .weekdays(let days): days.ordered(from: .monday).map(\.shortName).joined(separator: ", ")
    }
  }

  /// Reads ``text`` back (case and extra spaces ignored; `K per week` and `K/N` work too; a
  /// list of weekday names is a weekday schedule).
  public init(parsing input: String, field: String = "schedule") throws(ValidationError) {
    let words = input.lowercased().replacingOccurrences(of: "/", with: " in ")
      .split(whereSeparator: \.isWhitespace).map(String.init).filter { $0 != "times" && $0 != "time" }
    let rule =
      "must be daily, 'K a week', 'K in N days', 'K a month' or weekdays such as 'mon,wed,fri', not '\(input)'"
    func number(_ index: Int) throws(ValidationError) -> Int {
      guard index < words.count, let value = Int(words[index]) else {
        throw ValidationError(field: field, rule: rule)
      }
      return value
    }
    let rest = Array(words.dropFirst().filter { $0 != "a" && $0 != "per" && $0 != "every" })
    let parsed: Frequency
    if words == ["daily"] {
      parsed = .daily
    } else if rest == ["week"] {
      parsed = .weekly(targetPerWeek: try number(0))
    } else if rest == ["month"] {
      parsed = .monthly(timesPerMonth: try number(0))
    } else if rest.first == "in", rest.count == 2 || (rest.count == 3 && rest[2] == "days") {
      parsed = .timesInDays(times: try number(0), days: try number(2))
    } else if let first = input.split(whereSeparator: { $0 == "," || $0.isWhitespace }).first,
      Weekday(name: String(first)) ?? Weekday(shortName: String(first)) != nil
    {
      parsed = .weekdays(try WeekdaySet(parsing: input, field: field))
    } else {
      throw ValidationError(field: field, rule: rule)
    }
    self = try parsed.validated()
  }
}
