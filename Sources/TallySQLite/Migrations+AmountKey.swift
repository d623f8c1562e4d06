import GRDB

extension Migrations {
  /// An amount belongs to a done day of a measurable habit, and every such day has one: v8
  /// held that with a trigger on `habit_entries`, which runs a sub-program and a habit lookup
  /// for each row written — a sixth of the cost of a first pull's rows (issue 13). A foreign
  /// key holds it now. Both sides are computed columns: `habits.measurable` (is the habit
  /// measurable) and `habit_entries.done_measured` (for a done day, has it an amount; null
  /// otherwise, which a foreign key lets through). A done day's pair must then be its habit's.
  /// A day not done keeps no amount by its CHECK. SQLite cannot add a table's foreign key to
  /// a table, so `habit_entries` is rebuilt with every row; the kind trigger on `habits`,
  /// which converts a habit's days when its kind changes, names the table and is made again.
  static func v12(_ db: Database) throws {
    try db.execute(
      sql: """
        DROP TRIGGER habit_entries_amount_matches_kind_insert;
        DROP TRIGGER habit_entries_amount_matches_kind_update;
        DROP TRIGGER habits_kind_converts_entries;
        ALTER TABLE habits ADD COLUMN measurable INTEGER GENERATED ALWAYS AS (kind = 'measurable') VIRTUAL;
        CREATE UNIQUE INDEX habits_by_id_and_kind ON habits(id, measurable);
        CREATE TABLE habit_entries_v12 (
          habit_id TEXT NOT NULL REFERENCES habits(id) ON DELETE CASCADE,
          day TEXT NOT NULL,
          status TEXT NOT NULL CHECK (status IN ('done', 'skipped', 'noted')),
          note TEXT,
          amount INTEGER CHECK (amount IS NULL OR (status = 'done' AND amount BETWEEN 0 AND 1000000000000)),
          user_id TEXT,
          stamp TEXT,
          position INTEGER,
          done_measured INTEGER GENERATED ALWAYS AS (CASE WHEN status = 'done' THEN amount IS NOT NULL END) VIRTUAL,
          CHECK ((stamp IS NULL) = (user_id IS NULL) AND (stamp IS NULL) = (position IS NULL)),
          CHECK (status != 'noted' OR (note IS NOT NULL AND note != '')),
          FOREIGN KEY (habit_id, done_measured) REFERENCES habits(id, measurable) ON DELETE CASCADE,
          PRIMARY KEY (habit_id, day)
        ) STRICT, WITHOUT ROWID;
        INSERT INTO habit_entries_v12 (habit_id, day, status, note, amount, user_id, stamp, position)
        SELECT habit_id, day, status, note, amount, user_id, stamp, position FROM habit_entries;
        DROP TABLE habit_entries;
        ALTER TABLE habit_entries_v12 RENAME TO habit_entries;
        CREATE INDEX habit_entries_by_position ON habit_entries(user_id, position);
        CREATE INDEX habit_entries_unrecorded ON habit_entries(habit_id, day) WHERE stamp IS NULL;

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
