extension PostgresMigrations {
  /// Chosen weekdays and pauses (issue 55), as SQLite's v15 has them: a weekday schedule is a
  /// daily habit with `weekdays` (its days' bits, Sunday 1 … Saturday 64), and `pauses` holds a
  /// user's pauses of one habit (going with it) or of all. Overlaps are refused by the store
  /// under the user's lock, not here: pauses merged by sync may overlap. The feed takes the
  /// kind `pause`.
  static let v8 = """
    ALTER TABLE habits ADD COLUMN weekdays INTEGER
      CONSTRAINT habits_weekdays CHECK (weekdays IS NULL OR (frequency = 'daily' AND weekdays BETWEEN 1 AND 126));

    CREATE TABLE pauses (
      id UUID PRIMARY KEY,
      user_id UUID NOT NULL REFERENCES users(id),
      habit_id UUID REFERENCES habits(id) ON DELETE CASCADE,
      from_day TEXT NOT NULL CHECK (from_day BETWEEN '1970-01-01' AND '9999-12-31'),
      until_day TEXT CHECK (until_day IS NULL OR until_day BETWEEN from_day AND '9999-12-31')
    );
    CREATE INDEX pauses_by_user ON pauses(user_id, from_day);
    CREATE INDEX pauses_by_habit ON pauses(habit_id);

    ALTER TABLE sync_entities
      DROP CONSTRAINT sync_entities_kind_check,
      ADD CONSTRAINT sync_entities_kind_check CHECK (kind IN
        ('settings', 'habit', 'show', 'price', 'journal', 'chat', 'entry', 'episode', 'pause'))
    """
}
