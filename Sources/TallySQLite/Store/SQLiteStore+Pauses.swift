import Foundation
import GRDB
import TallyCore
import TallyStore
import TallySync

// MARK: - Pauses

extension SQLiteStore {
  public func pauses(for user: UUID) async throws -> [Pause] {
    try await read { db in
      try db.requireUser(user)
      return try db.pauses(of: user)
    }
  }

  public func savePause(_ pause: Pause, for user: UUID) async throws -> Pause {
    try await write(recordingFor: user) { db, sync in
      if let habit = pause.habitID { _ = try db.ownedHabit(habit, of: user) }
      if let owner = try String.fetchOne(db, sql: "SELECT user_id FROM pauses WHERE id = ?", arguments: [pause.id.storeText]),
        owner != user.storeText
      {
        throw StoreError.conflict("a pause with id \(pause.id.storeText) already exists")
      }
      let pause = try PauseRules.check(pause, against: try db.pauses(of: user))
      try db.writePause(pause, user: user)
      try sync.record(.pause(pause))
      return pause
    }
  }

  public func deletePause(id: UUID, for user: UUID) async throws {
    try await write(recordingFor: user) { db, sync in
      try db.execute(
        sql: "DELETE FROM pauses WHERE id = ? AND user_id = ?", arguments: [id.storeText, user.storeText])
      guard db.changesCount == 1 else { throw StoreError.notFound(.pause(id)) }
      try sync.record(.pauseDeleted(id))
    }
  }
}

extension Database {
  /// The user's pauses, by first day then id.
  func pauses(of user: UUID) throws -> [Pause] {
    let rows = try Row.fetchAll(
      cachedStatement(
        sql: "SELECT id, habit_id, from_day, until_day FROM pauses WHERE user_id = ? ORDER BY from_day, id"),
      arguments: [user.storeText])
    return try rows.map { row throws(StoreError) in
      let id: String = row["id"]
      let what = "pause \(id)"
      let habit: String? = row["habit_id"]
      let until: String? = row["until_day"]
      let pauseID = try Stored.uuid(id, "pauses.id")
      let habitID = try habit.map { text throws(StoreError) in try Stored.uuid(text, "\(what) habit_id") }
      let from = try Stored.day(row["from_day"], "\(what) from_day")
      let last = try until.map { text throws(StoreError) in try Stored.day(text, "\(what) until_day") }
      return try Stored.valid(what) { () throws(ValidationError) in
        try Pause(id: pauseID, habitID: habitID, from: from, until: last)
      }
    }
  }

  /// Inserts the pause or replaces the user's own with its id.
  func writePause(_ pause: Pause, user: UUID) throws {
    try execute(
      sql: """
        INSERT INTO pauses (id, user_id, habit_id, from_day, until_day) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (id) DO UPDATE SET habit_id = excluded.habit_id, from_day = excluded.from_day,
          until_day = excluded.until_day
        WHERE pauses.user_id = excluded.user_id
        """,
      arguments: [
        pause.id.storeText, user.storeText, pause.habitID?.storeText, pause.from.description, pause.until?.description,
      ])
  }
}
