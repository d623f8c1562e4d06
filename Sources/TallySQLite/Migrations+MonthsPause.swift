import GRDB

extension Migrations {
  /// Lets a writer of many days pause v13's month triggers inside its own transaction and write
  /// the months it touched once, afterwards (``Database/pausingHabitMonths(touching:_:)``): a
  /// first pull writes 150,000 days, and rewriting a month's row for each of them cost as much
  /// as writing the days. The pause is a row in `habit_months_pause`, which the triggers' `WHEN` looks
  /// for. The row refers to one that cannot exist (`id` is always 1), under a foreign key
  /// checked at commit, so a transaction that leaves it behind cannot commit: the triggers can
  /// never stay paused for a later writer, nor for another program.
  static func v14(_ db: Database) throws {
    let unpaused = "WHEN NOT EXISTS (SELECT 1 FROM habit_months_pause)"
    try db.execute(
      sql: """
        CREATE TABLE habit_months_pause (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          resume_before_commit INTEGER NOT NULL CHECK (resume_before_commit = 2)
            REFERENCES habit_months_pause(id) DEFERRABLE INITIALLY DEFERRED
        ) STRICT;

        DROP TRIGGER habit_months_insert;
        DROP TRIGGER habit_months_update;
        DROP TRIGGER habit_months_delete;

        CREATE TRIGGER habit_months_insert AFTER INSERT ON habit_entries \(unpaused)
        BEGIN
          \(monthsSetDay("NEW"))
        END;

        CREATE TRIGGER habit_months_update AFTER UPDATE OF habit_id, day, status ON habit_entries \(unpaused)
        BEGIN
          \(monthsClearDay)
          \(monthsSetDay("NEW"))
        END;

        CREATE TRIGGER habit_months_delete AFTER DELETE ON habit_entries \(unpaused)
        BEGIN
          \(monthsClearDay)
        END;
        """)
  }
}
