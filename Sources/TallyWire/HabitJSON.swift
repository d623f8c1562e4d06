import Foundation
import TallyCore
import TallyStore

/// A habit as `--json` prints it, `export` writes it and the API sends it: ids in lower case,
/// every key present (`null` when unset), so scripts can rely on the shape.
public struct HabitJSON: Codable, Equatable, Sendable {
  public var id: String
  public var name: String
  public var icon: String?
  public var color: HexColor
  public var group: String?
  public var createdDay: Day
  public var frequency: Frequency
  public var reminder: Reminder
  public var archived: Bool
  public var sortOrder: Int
  /// `null` for a yes/no habit.
  public var measure: Measure?
  public var description: String?

  public init(_ habit: Habit) {
    id = habit.id.storeText
    name = habit.name
    icon = habit.icon
    color = habit.color
    group = habit.group
    createdDay = habit.createdDay
    frequency = habit.frequency
    reminder = habit.reminder
    archived = habit.archived
    sortOrder = habit.sortOrder
    measure = habit.measure
    description = habit.description
  }

  /// Back to a habit, through every rule a typed one obeys.
  public func habit() throws -> Habit {
    guard let uuid = UUID(uuidString: id) else {
      throw ValidationError(field: "habit id", rule: "must be a UUID, not '\(id)'")
    }
    return try Habit(
      id: uuid, name: name, icon: icon, color: color, group: group, createdDay: createdDay,
      frequency: frequency, reminder: reminder, archived: archived, sortOrder: sortOrder, measure: measure,
      description: description)
  }

  private enum CodingKeys: String, CodingKey {
    case id, name, icon, color, group, createdDay, frequency, reminder, archived, sortOrder, measure, description
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(id, forKey: .id)
    try c.encode(name, forKey: .name)
    try c.encode(icon, forKey: .icon)
    try c.encode(color, forKey: .color)
    try c.encode(group, forKey: .group)
    try c.encode(createdDay, forKey: .createdDay)
    try c.encode(frequency, forKey: .frequency)
    try c.encode(reminder, forKey: .reminder)
    try c.encode(archived, forKey: .archived)
    try c.encode(sortOrder, forKey: .sortOrder)
    try c.encode(measure, forKey: .measure)
    try c.encode(description, forKey: .description)
  }
}
