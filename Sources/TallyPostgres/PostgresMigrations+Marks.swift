extension PostgresMigrations {
  /// A mark in one statement fewer (docs/storage.md, "Round trips"). Only adds functions:
  /// every row stays.
  ///
  /// `tally_lock_user` locks the user's row and then their feed head (made if missing) and
  /// answers what a write stamps with: every write for a user starts with it. A mark must
  /// lock before it reads, and a statement that waits for a lock still sees the snapshot
  /// taken before it waited, which misses what the holder committed; in a function each
  /// statement takes a new snapshot. So `tally_mark_days` locks, then reads the habit,
  /// upserts the days (only when the habit is the user's) and reads the feed's rows of those
  /// days, all in one call. It answers nothing for a user who does not exist, and one row
  /// without a habit for a habit that is not the user's. PL/pgSQL keeps the plans of the
  /// statements inside for the connection's life, as a prepared statement does, and these
  /// keep one generic plan: every lookup is by key, so planning again for each call's values
  /// (which PostgreSQL otherwise kept doing) bought nothing and cost a quarter of the
  /// database's CPU per mark.
  static let v6 = """
    CREATE FUNCTION tally_lock_user(user_key UUID)
    RETURNS TABLE (head_stamp TEXT, head_device UUID, head_replica BOOLEAN) LANGUAGE plpgsql
    SET plan_cache_mode = force_generic_plan AS $$
    BEGIN
      -- Setting a column to itself takes the row's lock, as FOR UPDATE would, and returns it.
      RETURN QUERY
      WITH owner AS (SELECT id FROM users WHERE id = user_key FOR NO KEY UPDATE)
      INSERT INTO sync_heads AS head (user_id, position) SELECT id, 0 FROM owner
      ON CONFLICT (user_id) DO UPDATE SET position = head.position
      RETURNING head.latest_stamp, (SELECT device_id FROM sync_meta WHERE id = 1),
        EXISTS (SELECT 1 FROM sync_remotes WHERE sync_remotes.user_id = user_key);
    END
    $$;
    CREATE FUNCTION tally_mark_days(
      habit_key UUID, user_key UUID, new_status TEXT, new_note TEXT, new_amount BIGINT, keeping_notes BOOLEAN,
      marked_days TEXT[], entity_ids TEXT[])
    RETURNS TABLE (
      head_stamp TEXT, head_device UUID, head_replica BOOLEAN,
      habit_row habits, entry_row habit_entries, feed_row sync_entities) LANGUAGE plpgsql
    SET plan_cache_mode = force_generic_plan AS $$
    DECLARE
      head RECORD;
    BEGIN
      SELECT * INTO head FROM tally_lock_user(user_key);
      IF NOT FOUND THEN RETURN; END IF;
      RETURN QUERY
      WITH owned AS (SELECT h FROM habits h WHERE h.id = habit_key AND h.user_id = user_key),
      written AS (
        INSERT INTO habit_entries AS entry (habit_id, day, status, note, amount)
        SELECT habit_key, day, new_status, new_note, new_amount FROM unnest(marked_days) AS day
        WHERE EXISTS (SELECT 1 FROM owned)
        ON CONFLICT (habit_id, day) DO UPDATE SET status = excluded.status, amount = excluded.amount,
          note = CASE WHEN keeping_notes THEN entry.note ELSE excluded.note END
        RETURNING entry)
      SELECT head.head_stamp, head.head_device, head.head_replica, owned.h, written.entry, feed
      FROM (SELECT 1) AS one LEFT JOIN owned ON true
      LEFT JOIN written ON true
      LEFT JOIN unnest(marked_days, entity_ids) AS key(day, id) ON key.day = (written.entry).day
      LEFT JOIN sync_entities feed ON feed.user_id = user_key AND feed.kind = 'entry' AND feed.entity_id = key.id;
    END
    $$
    """
}
