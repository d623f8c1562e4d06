import Foundation
import GRDB
import TallyCore
import TallyStore
import TallySync

// MARK: - Habits

extension SQLiteStore {
  public func insertHabit(_ habit: Habit, for user: UUID, last: Bool) async throws -> Habit {
    let habit = try StoreError.validating { () throws(ValidationError) in try habit.validated() }
    return try await write(recordingFor: user) { db, sync in
      guard try !HabitRecord.exists(db, key: habit.id.storeText) else {
        throw StoreError.conflict("a habit with id \(habit.id.storeText) already exists")
      }
      var habit = habit
      if last {
        habit.sortOrder = try Int.fetchOne(
          db, sql: "SELECT COALESCE(MAX(sort_order) + 1, 0) FROM habits WHERE user_id = ?",
          arguments: [user.storeText]) ?? 0
      }
      try HabitRecord(habit, user: user).write(db, inserting: true)
      try sync.record(.habit(habit))
      return habit
    }
  }

  public func habit(id: UUID, for user: UUID) async throws -> Habit {
    try await read { db in try db.ownedHabit(id, of: user).habit() }
  }

  public func habits(for user: UUID, includingArchived: Bool) async throws -> [Habit] {
    try await read { db in try Self.habits(db, user: user, includingArchived: includingArchived) }
  }

  static func habits(_ db: Database, user: UUID, includingArchived: Bool) throws -> [Habit] {
    try db.requireUser(user)
    let statement = try db.cachedStatement(
      sql: includingArchived
        ? "SELECT * FROM habits WHERE user_id = ?" : "SELECT * FROM habits WHERE user_id = ? AND NOT archived")
    return try HabitRecord.fetchAll(statement, arguments: [user.storeText])
      .map { record throws(StoreError) in try record.habit() }
      .sorted(by: StoreOrder.habits)
  }

  public func updateHabit(_ habit: Habit, for user: UUID) async throws -> Habit {
    let habit = try StoreError.validating { () throws(ValidationError) in try habit.validated() }
    return try await write(recordingFor: user) { db, sync in
      let old = try db.ownedHabit(habit.id, of: user)
      if old.kind != habit.kind.rawValue,
        try !EntryRecord.filter(EntryRecord.Columns.habitID == old.id).isEmpty(db)
      {
        throw HabitRules.kindFixed(from: old.kind, to: habit.kind.rawValue)
      }
      try HabitRecord(habit, user: user).write(db, inserting: false)
      try sync.record(.habit(habit))
      return habit
    }
  }

  public func setArchived(_ archived: Bool, habit id: UUID, for user: UUID) async throws -> Habit {
    try await write(recordingFor: user) { db, sync in
      var habit = try db.ownedHabit(id, of: user).habit()
      habit.archived = archived
      try HabitRecord(habit, user: user).write(db, inserting: false)
      try sync.record(.habit(habit))
      return habit
    }
  }

  public func deleteHabit(id: UUID, for user: UUID) async throws {
    try await write(recordingFor: user) { db, sync in
      // Entries and reminder deliveries go with it: ON DELETE CASCADE.
      let deleted = try HabitRecord
        .filter(HabitRecord.Columns.id == id.storeText && HabitRecord.Columns.userID == user.storeText)
        .deleteAll(db)
      guard deleted == 1 else { throw StoreError.notFound(.habit(id)) }
      try sync.record(.habitDeleted(id))
    }
  }

  public func reorderHabits(_ ids: [UUID], for user: UUID) async throws -> [Habit] {
    try await write(recordingFor: user) { db, sync in
      let current = try Self.habits(db, user: user, includingArchived: true)
      let order = try HabitReordering.order(current.map(\.id), moving: ids)
      let statement = try db.cachedStatement(sql: "UPDATE habits SET sort_order = ? WHERE id = ?")
      for (position, id) in order.enumerated() {
        try statement.execute(arguments: [position, id.storeText])
      }
      let reordered = try Self.habits(db, user: user, includingArchived: true)
      for habit in reordered { try sync.record(.habit(habit)) }
      return reordered
    }
  }
}
