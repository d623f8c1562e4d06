import GRDB

extension Migrations {
  /// Each yes/no habit's days kept compactly (issue 27): a row per habit and month, `days`
  /// holding one character per day of the month, `d` done, `s` skipped, `.` neither (a noted
  /// day, or none), always 31 long. Statistics read a year as twelve short rows rather than 365
  /// entries. SQLite keeps them itself: triggers on `habit_entries` rewrite the day's character
  /// whenever an entry is written or deleted, whoever writes it, so they can never disagree with
  /// the entries (docs/storage.md "Compact histories"). Measurable habits' amounts are not kept
  /// here; their statistics read the entries. The existing entries are written once into their
  /// months by touching each one, so the fill follows the same trigger as every later write.
  static func v13(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE habit_months (
          habit_id TEXT NOT NULL REFERENCES habits(id) ON DELETE CASCADE,
          month TEXT NOT NULL,
          days TEXT NOT NULL CHECK (length(days) = 31),
          PRIMARY KEY (habit_id, month)
        ) STRICT, WITHOUT ROWID;

        CREATE TRIGGER habit_months_insert AFTER INSERT ON habit_entries
        BEGIN
          \(monthsSetDay("NEW"))
        END;

        CREATE TRIGGER habit_months_update AFTER UPDATE OF habit_id, day, status ON habit_entries
        BEGIN
          \(monthsClearDay)
          \(monthsSetDay("NEW"))
        END;

        CREATE TRIGGER habit_months_delete AFTER DELETE ON habit_entries
        BEGIN
          \(monthsClearDay)
        END;

        UPDATE habit_entries SET status = status WHERE status != 'noted';
        """)
  }

  // The triggers' bodies, v13's and v14's alike: frozen as both.

  /// Sets the day's character in its month row from `row` (`NEW`), making the row when the
  /// month has none yet.
  static func monthsSetDay(_ row: String) -> String {
    """
    INSERT INTO habit_months (habit_id, month, days)
      SELECT \(row).habit_id, substr(\(row).day, 1, 7), '...............................'
      WHERE \(row).status != 'noted'
      ON CONFLICT DO NOTHING;
    UPDATE habit_months
      SET days = substr(days, 1, CAST(substr(\(row).day, 9, 2) AS INTEGER) - 1)
        || CASE \(row).status WHEN 'done' THEN 'd' WHEN 'skipped' THEN 's' ELSE '.' END
        || substr(days, CAST(substr(\(row).day, 9, 2) AS INTEGER) + 1)
      WHERE habit_id = \(row).habit_id AND month = substr(\(row).day, 1, 7);
    """
  }

  /// Clears the `OLD` row's day in its month.
  static let monthsClearDay = """
    UPDATE habit_months
      SET days = substr(days, 1, CAST(substr(OLD.day, 9, 2) AS INTEGER) - 1) || '.'
        || substr(days, CAST(substr(OLD.day, 9, 2) AS INTEGER) + 1)
      WHERE habit_id = OLD.habit_id AND month = substr(OLD.day, 1, 7);
    """
}
