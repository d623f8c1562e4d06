import GRDB

extension Migrations {
  /// Measurable habits and every schedule Loop knows (issue 15). `habits` is rebuilt, since
  /// SQLite cannot widen a CHECK: every row is copied as a yes/no habit with its schedule.
  /// New columns: the schedule's `schedule_times` / `schedule_days` ("k times in n days",
  /// "k per month"), `kind`, `unit`, `target` and `target_direction` (amounts are whole
  /// thousandths of the unit), `description`; entries get `amount` (thousandths, done days of
  /// measurable habits only). Triggers keep amounts to done days of measurable habits, and a
  /// habit whose kind changes (only sync does that once days are marked: two devices' edits
  /// merged) has its entries converted: done days get the target, amounts go for yes/no.
  /// The CHECKs say `IS NOT NULL` wherever a NULL would make them unknown, which SQLite counts
  /// as passing.
  static func v8(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE habits_v8 (
          id TEXT PRIMARY KEY NOT NULL,
          user_id TEXT NOT NULL REFERENCES users(id),
          name TEXT NOT NULL,
          icon TEXT,
          color TEXT NOT NULL,
          group_name TEXT,
          created_day TEXT NOT NULL,
          frequency TEXT NOT NULL CHECK (frequency IN ('daily', 'weekly', 'timesInDays', 'monthly')),
          target_per_week INTEGER,
          schedule_times INTEGER,
          schedule_days INTEGER,
          reminder TEXT NOT NULL CHECK (reminder IN ('none', 'single', 'periodic')),
          reminder_start TEXT,
          reminder_end TEXT,
          reminder_every_hours INTEGER,
          archived INTEGER NOT NULL CHECK (archived IN (0, 1)),
          sort_order INTEGER NOT NULL,
          name_key TEXT NOT NULL DEFAULT '',
          kind TEXT NOT NULL DEFAULT 'yesNo' CHECK (kind IN ('yesNo', 'measurable')),
          unit TEXT CHECK (length(unit) <= 120),
          target INTEGER,
          target_direction TEXT,
          description TEXT CHECK (length(description) BETWEEN 1 AND 4000),
          CHECK (
            (frequency = 'daily' AND target_per_week IS NULL AND schedule_times IS NULL AND schedule_days IS NULL)
            OR (frequency = 'weekly' AND target_per_week IS NOT NULL AND target_per_week BETWEEN 1 AND 6
              AND schedule_times IS NULL AND schedule_days IS NULL)
            OR (frequency = 'timesInDays' AND target_per_week IS NULL
              AND schedule_days IS NOT NULL AND schedule_days BETWEEN 2 AND 365
              AND schedule_times IS NOT NULL AND schedule_times BETWEEN 1 AND schedule_days - 1)
            OR (frequency = 'monthly' AND target_per_week IS NULL
              AND schedule_times IS NOT NULL AND schedule_times BETWEEN 1 AND 28 AND schedule_days IS NULL)),
          CHECK (
            (kind = 'yesNo' AND unit IS NULL AND target IS NULL AND target_direction IS NULL)
            OR (kind = 'measurable' AND unit IS NOT NULL
              AND target IS NOT NULL AND target BETWEEN 1 AND 1000000000000
              AND target_direction IS NOT NULL AND target_direction IN ('atLeast', 'atMost')
              AND coalesce(target_per_week, schedule_times, 1) = 1))
        ) STRICT;
        INSERT INTO habits_v8 (
          id, user_id, name, icon, color, group_name, created_day, frequency, target_per_week,
          reminder, reminder_start, reminder_end, reminder_every_hours, archived, sort_order, name_key)
        SELECT
          id, user_id, name, icon, color, group_name, created_day, frequency, target_per_week,
          reminder, reminder_start, reminder_end, reminder_every_hours, archived, sort_order, name_key
        FROM habits;
        DROP TABLE habits;
        ALTER TABLE habits_v8 RENAME TO habits;
        CREATE INDEX habits_by_user ON habits(user_id, sort_order);
        CREATE UNIQUE INDEX habits_by_name_key ON habits(user_id, name_key);

        ALTER TABLE habit_entries ADD COLUMN amount INTEGER
          CHECK (amount IS NULL OR (status = 'done' AND amount BETWEEN 0 AND 1000000000000));

        CREATE TRIGGER habit_entries_amount_matches_kind_insert
        BEFORE INSERT ON habit_entries
        WHEN (NEW.amount IS NOT NULL) != (NEW.status = 'done'
          AND (SELECT kind FROM habits WHERE id = NEW.habit_id) = 'measurable')
        BEGIN
          SELECT RAISE(ABORT, 'amount must be given for a done day of a measurable habit and only then');
        END;
        CREATE TRIGGER habit_entries_amount_matches_kind_update
        BEFORE UPDATE ON habit_entries
        WHEN (NEW.amount IS NOT NULL) != (NEW.status = 'done'
          AND (SELECT kind FROM habits WHERE id = NEW.habit_id) = 'measurable')
        BEGIN
          SELECT RAISE(ABORT, 'amount must be given for a done day of a measurable habit and only then');
        END;
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
