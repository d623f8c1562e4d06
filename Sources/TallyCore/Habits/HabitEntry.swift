/// What happened to a habit on one day. No entry means not done.
public enum EntryStatus: String, Codable, Sendable, CaseIterable {
  case done
  /// Neutral: never breaks a streak, never adds to one, left out of completion rates.
  case skipped
  /// Not done, with a note: the entry exists only to hold its note. Every rule counts the day
  /// exactly as a day with no entry.
  case noted
}

/// A habit's record for one day: at most one per (habit, day).
public struct HabitEntry: Hashable, Codable, Sendable {
  public var day: Day
  public var status: EntryStatus
  public var note: String?
  /// How much, for a measurable habit's done day; `nil` for yes/no habits and other days.
  public var amount: Amount?

  public init(day: Day, status: EntryStatus, note: String? = nil, amount: Amount? = nil) {
    self.day = day
    self.status = status
    self.note = note
    self.amount = amount
  }
}

/// A change to one day, spoken as the value to end with so retries and races are harmless.
public enum DayMark: Hashable, Sendable {
  case done
  case skipped
  /// No entry: not done.
  case nothing
  /// Not done, keeping only the note given with the mark (which must not be blank).
  case noted
  /// Done, this much (measurable habits).
  case amount(Amount)

  public var status: EntryStatus? {
    switch self {
    case .done, .amount: .done
    case .skipped: .skipped
    case .noted: .noted
    case .nothing: nil
    }
  }

  public var amount: Amount? {
    if case .amount(let amount) = self { amount } else { nil }
  }

  /// Days after today cannot be marked.
  public static func checkMarkable(_ day: Day, today: Day) throws(ValidationError) {
    guard day <= today else {
      throw ValidationError(
        field: "day", rule: "\(day) is in the future (today is \(today)); only days up to today can be marked",
        kind: .inFuture, values: ["day": "\(day)"])
    }
  }
}
