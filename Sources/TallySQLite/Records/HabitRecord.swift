import Foundation
import GRDB
import TallyCore
import TallyStore

/// A row of `habits`. The reminder is spread over four columns (`reminder` says which kind;
/// `reminder_start` holds a single reminder's time) so it can be queried.
struct HabitRecord: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "habits"

  var id: String
  var userID: String
  var name: String
  /// ``NameKey/comparisonKey(_:)`` of `name`: unique per user (v5).
  var nameKey: String
  var icon: String?
  var color: String
  var groupName: String?
  var createdDay: String
  var frequency: String
  var targetPerWeek: Int?
  var scheduleTimes: Int?
  var scheduleDays: Int?
  var reminder: String
  var reminderStart: String?
  var reminderEnd: String?
  var reminderEveryHours: Int?
  var archived: Bool
  var sortOrder: Int
  var kind: String
  var unit: String?
  /// Thousandths of the unit.
  var target: Int64?
  var targetDirection: String?
  var description: String?
  /// A weekday schedule's days as bits (v15), with `frequency` daily.
  var weekdays: Int?

  enum CodingKeys: String, CodingKey, ColumnExpression, CaseIterable {
    case id
    case userID = "user_id"
    case name
    case nameKey = "name_key"
    case icon, color
    case groupName = "group_name"
    case createdDay = "created_day"
    case frequency
    case targetPerWeek = "target_per_week"
    case scheduleTimes = "schedule_times"
    case scheduleDays = "schedule_days"
    case reminder
    case reminderStart = "reminder_start"
    case reminderEnd = "reminder_end"
    case reminderEveryHours = "reminder_every_hours"
    case archived
    case sortOrder = "sort_order"
    case kind, unit, target
    case targetDirection = "target_direction"
    case description, weekdays
  }

  typealias Columns = CodingKeys

  init(_ habit: Habit, user: UUID) {
    id = habit.id.storeText
    userID = user.storeText
    name = habit.name
    nameKey = NameKey.comparisonKey(habit.name)
    icon = habit.icon
    color = habit.color.hex
    groupName = habit.group
    createdDay = habit.createdDay.description
    let columns = StoredSchedule(habit)
    (frequency, targetPerWeek, scheduleTimes, scheduleDays) =
      (columns.frequency, columns.targetPerWeek, columns.scheduleTimes, columns.scheduleDays)
    (kind, unit, target, targetDirection) = (columns.kind, columns.unit, columns.target, columns.targetDirection)
    weekdays = columns.weekdays
    description = habit.description
    switch habit.reminder {
    case .none:
      reminder = "none"
    case .single(let time):
      reminder = "single"
      reminderStart = time.description
    case .periodic(let start, let end, let every):
      reminder = "periodic"
      reminderStart = start.description
      reminderEnd = end.description
      reminderEveryHours = every
    }
    archived = habit.archived
    sortOrder = habit.sortOrder
  }

  func habit() throws(StoreError) -> Habit {
    let what = "habit \(id)"
    let id = try Stored.uuid(id, "habits.id")
    let createdDay = try Stored.day(createdDay, "\(what) created_day")
    return try Stored.valid(what) { () throws(ValidationError) in
      let columns = StoredSchedule(
        frequency: frequency, targetPerWeek: targetPerWeek, scheduleTimes: scheduleTimes, scheduleDays: scheduleDays,
        kind: kind, unit: unit, target: target, targetDirection: targetDirection, weekdays: weekdays)
      func time(_ text: String?) throws(ValidationError) -> WallTime {
        try WallTime(parsing: text ?? "", field: "reminder time")
      }
      let reminder: Reminder =
        switch self.reminder {
        case "single": .single(try time(reminderStart))
        case "periodic":
          .periodic(
            start: try time(reminderStart), end: try time(reminderEnd),
            everyHours: reminderEveryHours ?? 0)
        default: .none
        }
      return try Habit(
        id: id, name: name, icon: icon, color: HexColor(parsing: color), group: groupName,
        createdDay: createdDay, frequency: columns.schedule, reminder: reminder, archived: archived,
        sortOrder: sortOrder, measure: try columns.measure(), description: description)
    }
  }
}

/// A row of `habit_entries`.
struct EntryRecord: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "habit_entries"

  var habitID: String
  var day: String
  var status: String
  var note: String?
  /// Thousandths of the habit's unit.
  var amount: Int64?

  enum CodingKeys: String, CodingKey, ColumnExpression {
    case habitID = "habit_id"
    case day, status, note, amount
  }

  typealias Columns = CodingKeys

  // Read by column rather than through Codable: a listing reads every entry of every habit,
  // and the decoder's bookkeeping was most of that time.
  init(row: Row) throws {
    habitID = row[Columns.habitID]
    day = row[Columns.day]
    status = row[Columns.status]
    note = row[Columns.note]
    amount = row[Columns.amount]
  }

  init(habit: UUID, entry: HabitEntry) {
    habitID = habit.storeText
    day = entry.day.description
    status = entry.status.rawValue
    note = entry.note
    amount = entry.amount?.thousandths
  }

  /// `habit_id, day, status, note, amount`, for the prepared inserts that write many rows.
  var arguments: StatementArguments { [habitID, day, status, note, amount] }

  func entry() throws(StoreError) -> HabitEntry {
    let day = try Stored.day(day, "entry of habit \(habitID)")
    guard let status = EntryStatus(rawValue: status) else {
      throw .corrupt("entry of habit \(habitID) on \(day) has status '\(status)'")
    }
    return HabitEntry(day: day, status: status, note: note, amount: amount.map(Amount.init(thousandths:)))
  }
}

extension HabitRecord {
  /// Inserts or updates the row. A name the user's other habits already have (as ``NameKey``
  /// compares) is refused by the unique index even when two writers race, and answered with
  /// the same sentence as the checks that run before a write.
  func write(_ db: Database, inserting: Bool) throws {
    do {
      if inserting {
        try insert(db)
      } else if try String.fetchOne(db, sql: "SELECT kind FROM habits WHERE id = ?", arguments: [id]) == kind {
        // Writing `kind`, even unchanged, makes SQLite check v12's amount key against every
        // day of the habit; a kind that stays is left out.
        try update(db, columns: CodingKeys.allCases.filter { $0 != .kind })
      } else {
        try update(db)
      }
    } catch let error as DatabaseError
      where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE && (error.message ?? "").contains("name_key")
    {
      let existing = try String.fetchOne(
        db, sql: "SELECT name FROM habits WHERE user_id = ? AND name_key = ?", arguments: [userID, nameKey])
      throw HabitRules.nameTaken(name, existing: existing, renaming: !inserting)
    }
  }
}
