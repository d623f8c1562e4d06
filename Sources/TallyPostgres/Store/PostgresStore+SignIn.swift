import Foundation
import PostgresNIO
import TallyStore

// MARK: - Sign-in attempts

extension PostgresStore {
  /// The first half of the advisory lock a key's attempts take ("sign" in ASCII); the second
  /// is the key's hash. Apart from the migrations' lock, which has another first half.
  static let signInLock: Int32 = 0x7369_676E

  public func claimSignInAttempt(_ key: String, at now: Date, limit: Int, window: TimeInterval) async throws
    -> SignInClaim
  {
    let at = InstantText.text(now)
    let cutoff = InstantText.text(now.addingTimeInterval(-window))
    return try await write { connection in
      // One key's attempts take turns, on every instance, until this transaction ends; each
      // statement after the lock sees every attempt committed before it was granted, so the
      // count and the insert below cannot interleave with another claim of the key.
      try await connection.run("SELECT pg_advisory_xact_lock(\(Self.signInLock), hashtext(\(key)))")
      // A few expired rows of any key go with each claim; rows another claim is deleting are
      // left to it rather than waited for.
      try await connection.run(
        """
        DELETE FROM sign_in_attempts WHERE id IN (
          SELECT id FROM sign_in_attempts WHERE attempted_at <= \(cutoff)
          ORDER BY attempted_at LIMIT 100 FOR UPDATE SKIP LOCKED)
        """)
      let counted = try await connection.values(
        """
        INSERT INTO sign_in_attempts (key, attempted_at)
        SELECT \(key), \(at)
        WHERE (SELECT count(*) FROM sign_in_attempts WHERE key = \(key) AND attempted_at > \(cutoff)) < \(limit)
        RETURNING id
        """, as: Int64.self)
      if let counted = counted.first { return .counted(SignInAttemptID(counted)) }
      let oldest = try await connection.values(
        "SELECT min(attempted_at) FROM sign_in_attempts WHERE key = \(key) AND attempted_at > \(cutoff)",
        as: String?.self)
      return .refused(
        until: try Stored.instant((oldest.first ?? nil) ?? at, "sign-in attempt").addingTimeInterval(window))
    }
  }

  public func releaseSignInAttempt(_ attempt: SignInAttemptID) async throws {
    try await write { connection in
      _ = try await connection.run("DELETE FROM sign_in_attempts WHERE id = \(attempt.rawValue)")
    }
  }

  public func clearSignInAttempts(_ key: String) async throws {
    try await write { connection in
      _ = try await connection.run("DELETE FROM sign_in_attempts WHERE key = \(key)")
    }
  }
}
