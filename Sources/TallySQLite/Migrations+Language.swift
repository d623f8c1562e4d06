import GRDB

extension Migrations {
  /// The language an account speaks (issue 56): `NULL`, as each browser asks, for every
  /// account there is, so no one's pages change language by upgrading.
  static func v17(_ db: Database) throws {
    try db.execute(
      sql: """
        ALTER TABLE users ADD COLUMN language TEXT CHECK (language IS NULL OR length(language) BETWEEN 2 AND 16);
        """)
  }
}
