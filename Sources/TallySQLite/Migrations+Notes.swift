import GRDB

extension Migrations {
  /// Notes on any day (issue 15): an entry may be `noted`, a day not done that holds only its
  /// note, which must then be present and not empty. SQLite cannot widen a CHECK, so
  /// `habit_entries` is rebuilt with every row, and v8's triggers are made again (the kind
  /// trigger on `habits` names the table, which a rename refuses while it is missing).
  static func v9(_ db: Database) throws {
    // v8's pair of amount triggers, word for word, one for each event.
    let amountTriggers = ["INSERT", "UPDATE"].map { event in
      """
      CREATE TRIGGER habit_entries_amount_matches_kind_\(event.lowercased())
      BEFORE \(event) ON habit_entries
      WHEN (NEW.amount IS NOT NULL) != (NEW.status = 'done'
        AND (SELECT kind FROM habits WHERE id = NEW.habit_id) = 'measurable')
      BEGIN
        SELECT RAISE(ABORT, 'amount must be given for a done day of a measurable habit and only then');
      END;
      """
    }
    try db.execute(
      sql: """
        DROP TRIGGER habits_kind_converts_entries;
        CREATE TABLE habit_entries_v9 (
          habit_id TEXT NOT NULL REFERENCES habits(id) ON DELETE CASCADE,
          day TEXT NOT NULL,
          status TEXT NOT NULL CHECK (status IN ('done', 'skipped', 'noted')),
          note TEXT,
          amount INTEGER CHECK (amount IS NULL OR (status = 'done' AND amount BETWEEN 0 AND 1000000000000)),
          CHECK (status != 'noted' OR (note IS NOT NULL AND note != '')),
          PRIMARY KEY (habit_id, day)
        ) STRICT, WITHOUT ROWID;
        INSERT INTO habit_entries_v9 (habit_id, day, status, note, amount)
        SELECT habit_id, day, status, note, amount FROM habit_entries;
        DROP TABLE habit_entries;
        ALTER TABLE habit_entries_v9 RENAME TO habit_entries;
        \(amountTriggers.joined(separator: "\n"))

        CREATE TRIGGER habits_kind_converts_entries
        AFTER UPDATE OF kind ON habits
        WHEN NEW.kind != OLD.kind
        BEGIN
          UPDATE habit_entries
          SET amount = CASE WHEN NEW.kind = 'measurable' AND status = 'done' THEN NEW.target END
          WHERE habit_id = NEW.id;
        END;
        """)
  }
}
