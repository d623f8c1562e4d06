extension PostgresMigrations {
  /// A mark without a transaction around it (docs/storage.md, "A lone mark"). Only adds
  /// functions: every row stays.
  ///
  /// `tally_read_marks` reads what a mark decides from, in one snapshot and without a lock:
  /// the user's feed head (its position too), the habit when it is the user's, and each day's
  /// entry and feed row. It answers nothing for a user who does not exist, one row without a
  /// habit for a habit that is not the user's, and a null position for a user with no head yet.
  ///
  /// `tally_write_marks` then writes what Tally decided from that read, committed as one
  /// statement: it locks the user as `tally_lock_user` does (the user's row, then the head),
  /// and writes only when the head is still at the position and stamp read and the user has
  /// no remote to queue changes for. Every write of a user's data moves the head, so an
  /// unmoved head means the read is still what the database holds. It answers the new head
  /// position, or null when the head moved (or the user is gone): nothing was written, and the
  /// caller marks again under the lock. The days are upserted as `tally_mark_days` upserts them.
  static let v7 = """
    CREATE FUNCTION tally_read_marks(
      habit_key UUID, user_key UUID, marked_days TEXT[], entity_ids TEXT[])
    RETURNS TABLE (
      head_position BIGINT, head_stamp TEXT, head_device UUID, head_replica BOOLEAN,
      habit_row habits, entry_row habit_entries, feed_row sync_entities) LANGUAGE plpgsql STABLE
    SET plan_cache_mode = force_generic_plan AS $$
    BEGIN
      RETURN QUERY
      SELECT head.position, head.latest_stamp, (SELECT device_id FROM sync_meta WHERE id = 1),
        EXISTS (SELECT 1 FROM sync_remotes WHERE sync_remotes.user_id = user_key), owned, entry, feed
      FROM users
      LEFT JOIN sync_heads head ON head.user_id = users.id
      LEFT JOIN habits owned ON owned.id = habit_key AND owned.user_id = users.id
      LEFT JOIN unnest(marked_days, entity_ids) AS key(day, id) ON owned.id IS NOT NULL
      LEFT JOIN habit_entries entry ON entry.habit_id = owned.id AND entry.day = key.day
      LEFT JOIN sync_entities feed ON feed.user_id = users.id AND feed.kind = 'entry' AND feed.entity_id = key.id
      WHERE users.id = user_key;
    END
    $$;
    CREATE FUNCTION tally_write_marks(
      user_key UUID, read_position BIGINT, read_stamp TEXT, habit_key UUID, new_status TEXT, new_note TEXT,
      new_amount BIGINT, keeping_notes BOOLEAN, marked_days TEXT[], latest TEXT,
      entity_ids TEXT[], entity_fields TEXT[], entity_stamps TEXT[], entity_deleted TEXT[])
    RETURNS BIGINT LANGUAGE plpgsql
    SET plan_cache_mode = force_generic_plan AS $$
    DECLARE
      moved BIGINT;
    BEGIN
      PERFORM FROM users WHERE id = user_key FOR NO KEY UPDATE;
      UPDATE sync_heads SET position = position + cardinality(entity_ids), latest_stamp = coalesce(latest, latest_stamp)
      WHERE user_id = user_key AND position = read_position AND latest_stamp IS NOT DISTINCT FROM read_stamp
        AND NOT EXISTS (SELECT 1 FROM sync_remotes WHERE sync_remotes.user_id = user_key)
      RETURNING position INTO moved;
      IF moved IS NULL THEN RETURN NULL; END IF;
      INSERT INTO habit_entries AS entry (habit_id, day, status, note, amount)
      SELECT habit_key, day, new_status, new_note, new_amount FROM unnest(marked_days) AS day
      ON CONFLICT (habit_id, day) DO UPDATE SET status = excluded.status, amount = excluded.amount,
        note = CASE WHEN keeping_notes THEN entry.note ELSE excluded.note END;
      INSERT INTO sync_entities (user_id, kind, entity_id, fields, stamps, deleted, position)
      SELECT user_key, 'entry', entity_id, fields, stamps, NULLIF(deleted, ''), moved - cardinality(entity_ids) + n
      FROM unnest(entity_ids, entity_fields, entity_stamps, entity_deleted)
        WITH ORDINALITY AS given(entity_id, fields, stamps, deleted, n)
      ON CONFLICT (user_id, kind, entity_id) DO UPDATE SET fields = excluded.fields, stamps = excluded.stamps,
        deleted = excluded.deleted, position = excluded.position;
      RETURN moved;
    END
    $$
    """
}
