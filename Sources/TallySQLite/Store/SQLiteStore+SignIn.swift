import Foundation
import GRDB
import TallyStore

// MARK: - Sign-in attempts

extension SQLiteStore {
  public func claimSignInAttempt(_ key: String, at now: Date, limit: Int, window: TimeInterval) async throws
    -> SignInClaim
  {
    let at = InstantText.text(now)
    let cutoff = InstantText.text(now.addingTimeInterval(-window))
    return try await write { db in
      try db.execute(sql: "DELETE FROM sign_in_attempts WHERE attempted_at <= ?", arguments: [cutoff])
      // One statement checks and counts: SQLite runs it under the file's write lock.
      let counted = try Int64.fetchOne(
        db,
        sql: """
          INSERT INTO sign_in_attempts (key, attempted_at)
          SELECT ?1, ?2 WHERE (SELECT count(*) FROM sign_in_attempts WHERE key = ?1 AND attempted_at > ?3) < ?4
          RETURNING id
          """,
        arguments: [key, at, cutoff, limit])
      if let counted { return .counted(SignInAttemptID(counted)) }
      let oldest = try String.fetchOne(
        db, sql: "SELECT min(attempted_at) FROM sign_in_attempts WHERE key = ? AND attempted_at > ?",
        arguments: [key, cutoff])
      return .refused(until: try Stored.instant(oldest ?? at, "sign-in attempt").addingTimeInterval(window))
    }
  }

  public func releaseSignInAttempt(_ attempt: SignInAttemptID) async throws {
    try await write { db in
      try db.execute(sql: "DELETE FROM sign_in_attempts WHERE id = ?", arguments: [attempt.rawValue])
    }
  }

  public func clearSignInAttempts(_ key: String) async throws {
    try await write { db in
      try db.execute(sql: "DELETE FROM sign_in_attempts WHERE key = ?", arguments: [key])
    }
  }
}
