import Foundation
import PostgresNIO
import TallyCore
import TallyStore
import TallySync

// MARK: - Pauses

extension PostgresStore {
  public func pauses(for user: UUID) async throws -> [Pause] {
    try await read { connection in
      try await connection.requireUser(user)
      return try await connection.pauses(of: user)
    }
  }

  /// The recorder holds the user's feed head, so two writes of one user's pauses take turns
  /// and the overlap check sees every pause.
  public func savePause(_ pause: Pause, for user: UUID) async throws -> Pause {
    try await write(recordingFor: user) { connection, sync in
      if let habit = pause.habitID { _ = try await connection.ownedHabit(habit, of: user) }
      let owner = try await connection.values("SELECT user_id FROM pauses WHERE id = \(pause.id)", as: UUID.self).first
      if let owner, owner != user {
        throw StoreError.conflict("a pause with id \(pause.id.storeText) already exists")
      }
      let pause = try PauseRules.check(pause, against: try await connection.pauses(of: user))
      try await connection.writePause(pause, user: user)
      try await sync.record(.pause(pause))
      return pause
    }
  }

  public func deletePause(id: UUID, for user: UUID) async throws {
    try await write(recordingFor: user) { connection, sync in
      guard try await connection.run("DELETE FROM pauses WHERE id = \(id) AND user_id = \(user) RETURNING 1") == 1 else {
        throw StoreError.notFound(.pause(id))
      }
      try await sync.record(.pauseDeleted(id))
    }
  }
}

extension PostgresConnection {
  func pauses(of user: UUID) async throws -> [Pause] {
    try await rows(
      "SELECT id, habit_id, from_day, until_day FROM pauses WHERE user_id = \(user) ORDER BY from_day, id"
    ).map(PostgresRows.pause)
  }

  func writePause(_ pause: Pause, user: UUID) async throws {
    try await run(
      """
      INSERT INTO pauses (id, user_id, habit_id, from_day, until_day)
      VALUES (\(pause.id), \(user), \(pause.habitID), \(pause.from.description), \(pause.until?.description))
      ON CONFLICT (id) DO UPDATE SET habit_id = excluded.habit_id, from_day = excluded.from_day,
        until_day = excluded.until_day
      WHERE pauses.user_id = excluded.user_id
      """)
  }
}

extension PostgresRows {
  static func pause(_ row: PostgresRandomAccessRow) throws -> Pause {
    let id = try row["id"].decode(UUID.self)
    let what = "pause \(id.storeText)"
    let habit = try row["habit_id"].decode(UUID?.self)
    let from = try Stored.day(try text(row, "from_day"), "\(what) from_day")
    let until = try optionalText(row, "until_day").map { text throws(StoreError) in
      try Stored.day(text, "\(what) until_day")
    }
    return try Stored.valid(what) { () throws(ValidationError) in try Pause(id: id, habitID: habit, from: from, until: until) }
  }
}

extension PostgresStore {
  /// Built from the entries, with each habit's pauses, in one snapshot of the database.
  public func histories(for user: UUID) async throws -> [UUID: HabitHistory] {
    try await read(.repeatableReadOnly) { connection in
      try await connection.requireUser(user)
      let habits = try await connection.habits(of: user, includingArchived: true).map(\.id)
      let entries = try await connection.entries(in: Day.allTime, user: user)
      return entries.mapValues(HabitHistory.init).filter { $0.value.firstDay != nil }
        .pausing(try await connection.pauses(of: user), habits: habits)
    }
  }
}
