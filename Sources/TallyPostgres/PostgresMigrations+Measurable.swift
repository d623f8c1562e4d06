extension PostgresMigrations {
  /// Measurable habits and every schedule Loop knows (issue 15), as SQLite's v8 has them.
  /// PostgreSQL widens a table in place: every habit stays, read as a yes/no habit with its
  /// schedule (`kind` defaults to `yesNo`). New columns: `schedule_times` / `schedule_days`
  /// ("k times in n days", "k per month"), `kind`, `unit`, `target` and `target_direction`
  /// (amounts are whole thousandths of the unit), `description`; entries get `amount`
  /// (thousandths, done days of measurable habits only). Triggers keep amounts to done days of
  /// measurable habits, and a habit whose kind changes (only sync does that once days are
  /// marked: two devices' edits merged) has its entries converted: done days get the target,
  /// amounts go for yes/no. The CHECKs say
  /// `IS NOT NULL` wherever a NULL would make them unknown, which lets a row through.
  static let v2 = """
    ALTER TABLE habits
      DROP CONSTRAINT habits_frequency_check,
      DROP CONSTRAINT habits_check,
      ADD COLUMN schedule_times INTEGER,
      ADD COLUMN schedule_days INTEGER,
      ADD COLUMN kind TEXT NOT NULL DEFAULT 'yesNo' CHECK (kind IN ('yesNo', 'measurable')),
      ADD COLUMN unit TEXT CHECK (char_length(unit) <= 120),
      ADD COLUMN target BIGINT,
      ADD COLUMN target_direction TEXT,
      ADD COLUMN description TEXT CHECK (char_length(description) BETWEEN 1 AND 4000),
      ADD CONSTRAINT habits_schedule CHECK (
        (frequency = 'daily' AND target_per_week IS NULL AND schedule_times IS NULL AND schedule_days IS NULL)
        OR (frequency = 'weekly' AND target_per_week IS NOT NULL AND target_per_week BETWEEN 1 AND 6
          AND schedule_times IS NULL AND schedule_days IS NULL)
        OR (frequency = 'timesInDays' AND target_per_week IS NULL
          AND schedule_days IS NOT NULL AND schedule_days BETWEEN 2 AND 365
          AND schedule_times IS NOT NULL AND schedule_times BETWEEN 1 AND schedule_days - 1)
        OR (frequency = 'monthly' AND target_per_week IS NULL
          AND schedule_times IS NOT NULL AND schedule_times BETWEEN 1 AND 28 AND schedule_days IS NULL)),
      ADD CONSTRAINT habits_measure CHECK (
        (kind = 'yesNo' AND unit IS NULL AND target IS NULL AND target_direction IS NULL)
        OR (kind = 'measurable' AND unit IS NOT NULL
          AND target IS NOT NULL AND target BETWEEN 1 AND 1000000000000
          AND target_direction IS NOT NULL AND target_direction IN ('atLeast', 'atMost')
          AND coalesce(target_per_week, schedule_times, 1) = 1));

    ALTER TABLE habit_entries ADD COLUMN amount BIGINT
      CONSTRAINT habit_entries_amount CHECK (amount IS NULL OR (status = 'done' AND amount BETWEEN 0 AND 1000000000000));

    CREATE FUNCTION habit_entries_amount_matches_kind() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF (NEW.amount IS NOT NULL) IS DISTINCT FROM (NEW.status = 'done'
        AND EXISTS (SELECT 1 FROM habits WHERE id = NEW.habit_id AND kind = 'measurable'))
      THEN
        RAISE EXCEPTION 'amount must be given for a done day of a measurable habit and only then'
          USING ERRCODE = 'check_violation';
      END IF;
      RETURN NEW;
    END
    $$;
    CREATE TRIGGER habit_entries_amount_matches_kind
      BEFORE INSERT OR UPDATE ON habit_entries
      FOR EACH ROW EXECUTE FUNCTION habit_entries_amount_matches_kind();

    CREATE FUNCTION habits_kind_converts_entries() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE habit_entries
        SET amount = CASE WHEN NEW.kind = 'measurable' AND status = 'done' THEN NEW.target END
        WHERE habit_id = NEW.id;
      RETURN NEW;
    END
    $$;
    CREATE TRIGGER habits_kind_converts_entries
      AFTER UPDATE OF kind ON habits
      FOR EACH ROW WHEN (NEW.kind <> OLD.kind) EXECUTE FUNCTION habits_kind_converts_entries()
    """
}
