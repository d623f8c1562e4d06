extension PostgresMigrations {
  /// Every write's feed entry in a function with one generic plan, as `v6` did for the mark:
  /// as a prepared statement of its own, PostgreSQL planned it again for each call's values,
  /// though every row it touches is found by key. Only adds a function: every row stays.
  ///
  /// `tally_write_sync_entities` moves the user's head past the entities given, announces the
  /// new head on `channel` (as `payload`, a space, the head), keeps `latest` as the latest
  /// stamp when given, and writes the entities at the positions they took, in order. It
  /// answers the new head, or NULL for a user without one (every write locks the user first
  /// with `tally_lock_user`, which makes it).
  static let v7 = """
    CREATE FUNCTION tally_write_sync_entities(
      moved_by BIGINT, latest TEXT, user_key UUID, channel TEXT, payload TEXT,
      entity_kinds TEXT[], entity_ids TEXT[], entity_fields TEXT[], entity_stamps TEXT[], entity_deletions TEXT[])
    RETURNS BIGINT LANGUAGE plpgsql
    SET plan_cache_mode = force_generic_plan AS $$
    DECLARE
      new_head BIGINT;
    BEGIN
      UPDATE sync_heads SET position = position + moved_by, latest_stamp = COALESCE(latest, latest_stamp)
      WHERE user_id = user_key RETURNING position INTO new_head;
      IF new_head IS NULL THEN RETURN NULL; END IF;
      PERFORM pg_notify(channel, payload || ' ' || new_head);
      INSERT INTO sync_entities AS entity (user_id, kind, entity_id, fields, stamps, deleted, position)
      SELECT user_key, given.kind, given.id, given.fields, given.stamps, NULLIF(given.deleted, ''),
        new_head - moved_by + given.n
      FROM unnest(entity_kinds, entity_ids, entity_fields, entity_stamps, entity_deletions)
        WITH ORDINALITY AS given(kind, id, fields, stamps, deleted, n)
      ON CONFLICT (user_id, kind, entity_id) DO UPDATE SET fields = excluded.fields,
        stamps = excluded.stamps, deleted = excluded.deleted, position = excluded.position;
      RETURN new_head;
    END
    $$
    """
}
