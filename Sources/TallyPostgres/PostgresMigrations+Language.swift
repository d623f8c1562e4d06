extension PostgresMigrations {
  /// The language an account speaks (issue 56), as SQLite's v17 has it: `NULL`, as each
  /// browser asks, for every account there is.
  static let v10 = """
    ALTER TABLE users ADD COLUMN language TEXT CHECK (language IS NULL OR length(language) BETWEEN 2 AND 16);
    """
}
