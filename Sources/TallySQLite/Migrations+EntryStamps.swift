import GRDB

extension Migrations {
  /// A marked day keeps its own place in the change feed (issue 13's first pull): its stamp
  /// and feed position move from its `sync_entities` row into its `habit_entries` row, so a
  /// replica writes one row per pulled day instead of two. `sync_entities` keeps the entries
  /// that are not a row here: cleared days, and days of a habit not yet complete on this
  /// replica. `user_id`, `stamp` and `position` are null only between a store's write of a
  /// day and its recording in the same transaction (or until `SyncBackfill` mirrors a file
  /// from before v6), which a small index finds. Every row is kept; a day's stamp is the
  /// latest its fields carried.
  static func v11(_ db: Database) throws {
    // v9's pair of amount triggers, word for word, one for each event.
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
        CREATE TABLE habit_entries_v11 (
          habit_id TEXT NOT NULL REFERENCES habits(id) ON DELETE CASCADE,
          day TEXT NOT NULL,
          status TEXT NOT NULL CHECK (status IN ('done', 'skipped', 'noted')),
          note TEXT,
          amount INTEGER CHECK (amount IS NULL OR (status = 'done' AND amount BETWEEN 0 AND 1000000000000)),
          user_id TEXT,
          stamp TEXT,
          position INTEGER,
          CHECK (status != 'noted' OR (note IS NOT NULL AND note != '')),
          CHECK ((stamp IS NULL) = (user_id IS NULL) AND (stamp IS NULL) = (position IS NULL)),
          PRIMARY KEY (habit_id, day)
        ) STRICT, WITHOUT ROWID;
        INSERT INTO habit_entries_v11 (habit_id, day, status, note, amount, user_id, stamp, position)
        SELECT e.habit_id, e.day, e.status, e.note, e.amount, s.user_id,
          CASE WHEN s.stamps LIKE '{%' THEN (SELECT max(value) FROM json_each(s.stamps)) ELSE s.stamps END,
          s.position
        FROM habit_entries e
        JOIN habits h ON h.id = e.habit_id
        LEFT JOIN sync_entities s ON s.user_id = h.user_id AND s.kind = 'entry'
          AND s.entity_id = e.habit_id || '/' || e.day AND s.fields ->> '$.status' IS NOT NULL;
        DROP TABLE habit_entries;
        ALTER TABLE habit_entries_v11 RENAME TO habit_entries;
        CREATE INDEX habit_entries_by_position ON habit_entries(user_id, position);
        CREATE INDEX habit_entries_unrecorded ON habit_entries(habit_id, day) WHERE stamp IS NULL;
        DELETE FROM sync_entities WHERE kind = 'entry' AND EXISTS (
          SELECT 1 FROM habit_entries e WHERE e.user_id = sync_entities.user_id AND e.position = sync_entities.position);
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
