extension PostgresMigrations {
  /// Notes on any day (issue 15), as SQLite's v9 has them: an entry may be `noted`, a day not
  /// done that holds only its note, which must then be present and not empty. Every row stays.
  static let v3 = """
    ALTER TABLE habit_entries
      DROP CONSTRAINT habit_entries_status_check,
      ADD CONSTRAINT habit_entries_status CHECK (status IN ('done', 'skipped', 'noted')),
      ADD CONSTRAINT habit_entries_noted_has_note CHECK (status <> 'noted' OR (note IS NOT NULL AND note <> ''))
    """
}
