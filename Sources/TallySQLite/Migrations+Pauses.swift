import GRDB

extension Migrations {
  /// Chosen weekdays and pauses (issue 55). A weekday schedule is a daily habit with
  /// `weekdays`, its days' bits (Sunday 1 … Saturday 64; 1 to 6 of them), added as a column so
  /// `habits` and its triggers stay as they are. `pauses` holds a user's pauses: of one habit
  /// (`habit_id`, going with the habit) or of all (`habit_id` null), from a day through a day,
  /// or open (`until_day` null). Overlaps are refused by the store inside the write's
  /// transaction, not here: two devices' pauses merged by sync may overlap, and are read as
  /// their union. `sync_entities` is rebuilt, since SQLite cannot widen its kind's CHECK, to
  /// take the new kind `pause`.
  static func v15(_ db: Database) throws {
    try db.execute(
      sql: """
        ALTER TABLE habits ADD COLUMN weekdays INTEGER
          CHECK (weekdays IS NULL OR (frequency = 'daily' AND weekdays BETWEEN 1 AND 126));

        CREATE TABLE pauses (
          id TEXT PRIMARY KEY NOT NULL,
          user_id TEXT NOT NULL REFERENCES users(id),
          habit_id TEXT REFERENCES habits(id) ON DELETE CASCADE,
          from_day TEXT NOT NULL CHECK (from_day BETWEEN '1970-01-01' AND '9999-12-31'),
          until_day TEXT CHECK (until_day IS NULL OR until_day BETWEEN from_day AND '9999-12-31')
        ) STRICT;
        CREATE INDEX pauses_by_user ON pauses(user_id, from_day);
        CREATE INDEX pauses_by_habit ON pauses(habit_id);

        CREATE TABLE sync_entities_v15 (
          user_id TEXT NOT NULL REFERENCES users(id),
          kind TEXT NOT NULL CHECK (kind IN
            ('settings', 'habit', 'show', 'price', 'journal', 'chat', 'entry', 'episode', 'pause')),
          entity_id TEXT NOT NULL,
          fields TEXT NOT NULL,
          stamps TEXT NOT NULL,
          deleted TEXT,
          position INTEGER NOT NULL,
          PRIMARY KEY (user_id, kind, entity_id)
        ) STRICT, WITHOUT ROWID;
        INSERT INTO sync_entities_v15 SELECT user_id, kind, entity_id, fields, stamps, deleted, position
          FROM sync_entities;
        DROP TABLE sync_entities;
        ALTER TABLE sync_entities_v15 RENAME TO sync_entities;
        CREATE UNIQUE INDEX sync_entities_by_position ON sync_entities(user_id, position);
        """)
  }
}
