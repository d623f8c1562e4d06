import GRDB

extension Migrations {
  /// A marked day keeps its own place in the change feed (issue 13's first pull): its stamp
  /// and feed position move from its `sync_entities` row into its `habit_entries` row, so a
  /// replica writes one row per pulled day instead of two. `sync_entities` keeps the entries
  /// that are not a row here: cleared days, and days of a habit not yet complete on this
  /// replica. `user_id`, `stamp` and `position` are null only between a store's write of a
  /// day and its recording in the same transaction (or until `SyncBackfill` mirrors a file
  /// from before v6), which a small index finds. Columns are added, not the table rebuilt, so
  /// v9's triggers stay as they are; a day's stamp is the latest its fields carried.
  static func v11(_ db: Database) throws {
    try db.execute(
      sql: """
        ALTER TABLE habit_entries ADD COLUMN user_id TEXT;
        ALTER TABLE habit_entries ADD COLUMN stamp TEXT;
        ALTER TABLE habit_entries ADD COLUMN position INTEGER
          CHECK ((stamp IS NULL) = (user_id IS NULL) AND (stamp IS NULL) = (position IS NULL));
        UPDATE habit_entries SET user_id = s.user_id,
          stamp = CASE WHEN s.stamps LIKE '{%' THEN (SELECT max(value) FROM json_each(s.stamps)) ELSE s.stamps END,
          position = s.position
        FROM habits h, sync_entities s
        WHERE h.id = habit_entries.habit_id AND s.user_id = h.user_id AND s.kind = 'entry'
          AND s.entity_id = habit_entries.habit_id || '/' || habit_entries.day AND s.fields ->> '$.status' IS NOT NULL;
        CREATE INDEX habit_entries_by_position ON habit_entries(user_id, position);
        CREATE INDEX habit_entries_unrecorded ON habit_entries(habit_id, day) WHERE stamp IS NULL;
        DELETE FROM sync_entities WHERE kind = 'entry' AND EXISTS (
          SELECT 1 FROM habit_entries e WHERE e.user_id = sync_entities.user_id AND e.position = sync_entities.position);
        """)
  }
}
