import GRDB

extension Migrations {
  /// Sign-in attempts counted in the file instead of the server's memory, so every process
  /// on it shares the count (issue 18). `key` is a digest of the name and address; rows that
  /// leave the window are deleted as new ones come. Only adds a table: every row of the
  /// version before is kept as it was.
  static func v10(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE sign_in_attempts (
          id INTEGER PRIMARY KEY,
          key TEXT NOT NULL CHECK (length(key) BETWEEN 1 AND 128),
          attempted_at TEXT NOT NULL
        ) STRICT;
        CREATE INDEX sign_in_attempts_by_key ON sign_in_attempts(key, attempted_at);
        CREATE INDEX sign_in_attempts_by_time ON sign_in_attempts(attempted_at);
        """)
  }
}
