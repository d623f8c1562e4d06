import Foundation
import PostgresNIO
import TallyCore
import TallyStore
import TallySync

// MARK: - Habits

extension PostgresStore {
  /// `last` reads the user's largest position after ``write(recordingFor:_:)`` has locked
  /// their row, so two instances appending at once take turns and different places.
  public func insertHabit(_ habit: Habit, for user: UUID, last: Bool) async throws -> Habit {
    let habit = try StoreError.validating { () throws(ValidationError) in try habit.validated() }
    return try await write(recordingFor: user) { connection, sync in
      guard try await !connection.exists("SELECT EXISTS (SELECT 1 FROM habits WHERE id = \(habit.id))") else {
        throw StoreError.conflict("a habit with id \(habit.id.storeText) already exists")
      }
      var habit = habit
      if last {
        habit.sortOrder = try await connection.values(
          "SELECT COALESCE(MAX(sort_order) + 1, 0) FROM habits WHERE user_id = \(user)", as: Int.self
        ).first ?? 0
      }
      try await connection.writeHabit(habit, user: user, inserting: true)
      try await sync.record(.habit(habit))
      return habit
    }
  }

  public func habit(id: UUID, for user: UUID) async throws -> Habit {
    try await read { connection in try await connection.ownedHabit(id, of: user) }
  }

  public func habits(for user: UUID, includingArchived: Bool) async throws -> [Habit] {
    try await read { connection in try await connection.habits(of: user, includingArchived: includingArchived) }
  }

  public func updateHabit(_ habit: Habit, for user: UUID) async throws -> Habit {
    let habit = try StoreError.validating { () throws(ValidationError) in try habit.validated() }
    return try await write(recordingFor: user) { connection, sync in
      let old = try await connection.ownedHabit(habit.id, of: user)
      if old.kind != habit.kind,
        try await connection.exists("SELECT EXISTS (SELECT 1 FROM habit_entries WHERE habit_id = \(habit.id))")
      {
        throw HabitRules.kindFixed(from: old.kind.rawValue, to: habit.kind.rawValue)
      }
      try await connection.writeHabit(habit, user: user, inserting: false)
      try await sync.record(.habit(habit))
      return habit
    }
  }

  public func setArchived(_ archived: Bool, habit id: UUID, for user: UUID) async throws -> Habit {
    try await write(recordingFor: user) { connection, sync in
      var habit = try await connection.ownedHabit(id, of: user)
      habit.archived = archived
      try await connection.run("UPDATE habits SET archived = \(archived) WHERE id = \(id)")
      try await sync.record(.habit(habit))
      return habit
    }
  }

  public func deleteHabit(id: UUID, for user: UUID) async throws {
    try await write(recordingFor: user) { connection, sync in
      // Entries and reminder deliveries go with it: ON DELETE CASCADE.
      let deleted = try await connection.run(
        "DELETE FROM habits WHERE id = \(id) AND user_id = \(user) RETURNING 1")
      guard deleted == 1 else { throw StoreError.notFound(.habit(id)) }
      try await sync.record(.habitDeleted(id))
    }
  }

  public func reorderHabits(_ ids: [UUID], for user: UUID) async throws -> [Habit] {
    try await write(recordingFor: user) { connection, sync in
      let current = try await connection.habits(of: user, includingArchived: true)
      let order = try HabitReordering.order(current.map(\.id), moving: ids)
      try await connection.run(
        """
        UPDATE habits SET sort_order = wanted.position - 1
        FROM unnest(\(order)::uuid[]) WITH ORDINALITY AS wanted(id, position)
        WHERE habits.id = wanted.id AND habits.user_id = \(user)
        """)
      let reordered = try await connection.habits(of: user, includingArchived: true)
      try await sync.record(reordered.map(SyncRecord.habit))
      return reordered
    }
  }
}

extension PostgresConnection {
  func habits(of user: UUID, includingArchived: Bool) async throws -> [Habit] {
    try await requireUser(user)
    let rows =
      includingArchived
      ? try await rows("SELECT * FROM habits WHERE user_id = \(user)")
      : try await rows("SELECT * FROM habits WHERE user_id = \(user) AND NOT archived")
    return try rows.map(PostgresRows.habit).sorted(by: StoreOrder.habits)
  }

  /// Inserts or updates the row. A name the user's other habits already have (as ``NameKey``
  /// compares) is refused by the unique constraint even when two instances race, and answered
  /// with the same sentence as SQLite's.
  func writeHabit(_ habit: Habit, user: UUID, inserting: Bool) async throws {
    let key = NameKey.comparisonKey(habit.name)
    let columns = StoredSchedule(habit)
    var (reminder, start, end, every): (String, String?, String?, Int?) = ("none", nil, nil, nil)
    switch habit.reminder {
    case .none: break
    case .single(let time): (reminder, start) = ("single", time.description)
    case .periodic(let from, let to, let hours): (reminder, start, end, every) = ("periodic", from.description, to.description, hours)
    }
    // The user's row is locked (every habit write goes through ``lockUser(_:)``), so this
    // check sees every habit the user can have; the constraint stays the rule.
    let existing = try await values(
      "SELECT name FROM habits WHERE user_id = \(user) AND name_key = \(key) AND id <> \(habit.id)", as: String.self
    ).first
    if let existing { throw HabitRules.nameTaken(habit.name, existing: existing, renaming: !inserting) }
    try await run(
      """
      INSERT INTO habits (id, user_id, name, name_key, icon, color, group_name, created_day, frequency,
        target_per_week, schedule_times, schedule_days, reminder, reminder_start, reminder_end, reminder_every_hours,
        archived, sort_order, kind, unit, target, target_direction, description, weekdays)
      VALUES (\(habit.id), \(user), \(habit.name), \(key), \(habit.icon), \(habit.color.hex), \(habit.group),
        \(habit.createdDay.description), \(columns.frequency), \(columns.targetPerWeek), \(columns.scheduleTimes),
        \(columns.scheduleDays), \(reminder), \(start), \(end), \(every), \(habit.archived), \(habit.sortOrder),
        \(columns.kind), \(columns.unit), \(columns.target), \(columns.targetDirection), \(habit.description),
        \(columns.weekdays))
      \(unescaped: inserting ? "" : Self.habitUpdate)
      """)
  }

  /// Turns the insert into an update of the user's own habit with the same id.
  private static let habitUpdate = """
    ON CONFLICT (id) DO UPDATE SET name = excluded.name, name_key = excluded.name_key, icon = excluded.icon,
      color = excluded.color, group_name = excluded.group_name, created_day = excluded.created_day,
      frequency = excluded.frequency, target_per_week = excluded.target_per_week,
      schedule_times = excluded.schedule_times, schedule_days = excluded.schedule_days, reminder = excluded.reminder,
      reminder_start = excluded.reminder_start, reminder_end = excluded.reminder_end,
      reminder_every_hours = excluded.reminder_every_hours, archived = excluded.archived,
      sort_order = excluded.sort_order, kind = excluded.kind, unit = excluded.unit, target = excluded.target,
      target_direction = excluded.target_direction, description = excluded.description, weekdays = excluded.weekdays
    WHERE habits.user_id = excluded.user_id
    """
}
