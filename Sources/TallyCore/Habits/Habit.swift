import Foundation

/// Something a person means to do daily or a few times a week (SPEC 2).
public struct Habit: Identifiable, Hashable, Codable, Sendable {
  public var id: UUID
  public var name: String
  /// One emoji or a short symbol name such as `figure.walk`.
  public var icon: String?
  public var color: HexColor
  /// A name habits are grouped under in lists.
  public var group: String?
  public var createdDay: Day
  public var frequency: Frequency
  public var reminder: Reminder
  public var archived: Bool
  public var sortOrder: Int
  /// `nil` for a yes/no habit; what to measure for a measurable one.
  public var measure: Measure?
  /// Free text about the habit (Loop calls it the question or description).
  public var description: String?

  public var kind: HabitKind { measure == nil ? .yesNo : .measurable }

  public static let nameLengths = 1...100
  public static let groupLengths = 1...50
  public static let symbolNameLengths = 1...64
  public static let descriptionLengths = 1...1000
  public static let defaultColor = HexColor(red: 0x8B, green: 0x5C, blue: 0xF6)

  /// Builds a habit from user input, trimming text and rejecting anything that breaks a rule.
  public init(
    id: UUID,
    name: String,
    icon: String? = nil,
    color: HexColor = Habit.defaultColor,
    group: String? = nil,
    createdDay: Day,
    frequency: Frequency = .daily,
    reminder: Reminder = .none,
    archived: Bool = false,
    sortOrder: Int = 0,
    measure: Measure? = nil,
    description: String? = nil
  ) throws(ValidationError) {
    self.id = id
    self.name = try Habit.validName(name)
    self.icon = try Habit.validIcon(icon)
    self.color = color
    self.group = try Habit.validGroup(group)
    self.createdDay = createdDay
    self.frequency = try frequency.validated()
    self.reminder = try reminder.validated()
    self.archived = archived
    self.sortOrder = sortOrder
    self.measure = measure
    self.description = try Habit.validDescription(description)
    if measure != nil, self.frequency.times != 1 {
      throw ValidationError(
        field: "frequency",
        rule: "of a measurable habit counts once per period (the target is the amount per period), not \(self.frequency.times) times")
    }
  }

  /// Checks every rule again, for values that were changed field by field or decoded.
  public func validated() throws(ValidationError) -> Habit {
    try Habit(
      id: id, name: name, icon: icon, color: color, group: group, createdDay: createdDay,
      frequency: frequency, reminder: reminder, archived: archived, sortOrder: sortOrder,
      measure: measure, description: description)
  }

  /// `nil` or blank means no description.
  public static func validDescription(_ text: String?) throws(ValidationError) -> String? {
    guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty
    else { return nil }
    guard descriptionLengths.contains(trimmed.count) else {
      throw ValidationError.tooLong("description", max: descriptionLengths.upperBound, length: trimmed.count)
    }
    try NulFreeText.check(trimmed, field: "description")
    return trimmed
  }

  /// Checks an entry against the habit's kind: amounts belong to measurable habits, and a
  /// measurable day that is done says how much.
  public func checkEntry(status: EntryStatus, amount: Amount?) throws(ValidationError) {
    switch (measure, status, amount) {
    case (nil, _, .some):
      throw ValidationError(field: "amount", rule: "is only for measurable habits; '\(name)' is yes/no",
        kind: .amountNotMeasured)
    case (.some, .done, nil):
      throw ValidationError(field: "amount", rule: "is required for a measurable habit such as '\(name)'",
        kind: .amountMissing)
    case (.some, .skipped, .some):
      throw ValidationError(field: "amount", rule: "must be left out of a skipped day", kind: .amountNotDone)
    case (.some, .noted, .some):
      throw ValidationError(field: "amount", rule: "must be left out of a day that is not done", kind: .amountNotDone)
    case (_, _, .some(let amount)):
      _ = try amount.validated()
    default:
      break
    }
  }

  public static func validName(_ name: String) throws(ValidationError) -> String {
    let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
    guard nameLengths.contains(trimmed.count) else {
      throw ValidationError(
        field: "name",
        rule: "must be 1 to 100 characters after trimming spaces (this one has \(trimmed.count))",
        kind: trimmed.isEmpty ? .empty : .tooLong, values: ["max": "100", "length": "\(trimmed.count)"])
    }
    try NulFreeText.check(trimmed, field: "name")
    return trimmed
  }

  /// `nil` or blank means no group.
  public static func validGroup(_ group: String?) throws(ValidationError) -> String? {
    guard let trimmed = group?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty
    else { return nil }
    guard groupLengths.contains(trimmed.count) else {
      throw ValidationError.tooLong("group", max: groupLengths.upperBound, length: trimmed.count)
    }
    try NulFreeText.check(trimmed, field: "group")
    return trimmed
  }

  /// `nil` or blank means no icon; otherwise one emoji or a symbol name (`a-z`, `0-9`, dots).
  public static func validIcon(_ icon: String?) throws(ValidationError) -> String? {
    guard let trimmed = icon?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty
    else { return nil }
    if trimmed.count == 1, trimmed.unicodeScalars.contains(where: \.properties.isEmoji),
      !trimmed.unicodeScalars.allSatisfy({ $0.isASCII })
    {
      return trimmed
    }
    let isSymbolName =
      symbolNameLengths.contains(trimmed.utf8.count)
      && trimmed.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { part in
        !part.isEmpty && part.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) }
      }
    guard isSymbolName else {
      throw ValidationError(
        field: "icon",
        rule: "must be one emoji or a symbol name like figure.walk, not '\(trimmed)'",
        kind: .notAnIcon, values: ["value": trimmed])
    }
    return trimmed
  }

  // Decoding goes through the validating initialiser so a stored or imported habit obeys
  // the same rules as a typed one.
  private enum CodingKeys: String, CodingKey {
    case id, name, icon, color, group, createdDay, frequency, reminder, archived, sortOrder, measure, description
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    do {
      try self.init(
        id: c.decode(UUID.self, forKey: .id),
        name: c.decode(String.self, forKey: .name),
        icon: c.decodeIfPresent(String.self, forKey: .icon),
        color: c.decode(HexColor.self, forKey: .color),
        group: c.decodeIfPresent(String.self, forKey: .group),
        createdDay: c.decode(Day.self, forKey: .createdDay),
        frequency: c.decode(Frequency.self, forKey: .frequency),
        reminder: c.decodeIfPresent(Reminder.self, forKey: .reminder) ?? .none,
        archived: c.decodeIfPresent(Bool.self, forKey: .archived) ?? false,
        sortOrder: c.decodeIfPresent(Int.self, forKey: .sortOrder) ?? 0,
        measure: c.decodeIfPresent(Measure.self, forKey: .measure),
        description: c.decodeIfPresent(String.self, forKey: .description))
    } catch let error as ValidationError {
      throw DecodingError.dataCorrupted(
        .init(codingPath: c.codingPath, debugDescription: error.description))
    }
  }
}

/// Whether a habit is ticked (yes/no) or measured in a unit.
public enum HabitKind: String, Codable, Sendable, CaseIterable {
  case yesNo, measurable
}
