import GRDB

/// Tally's schema, one named migration per version.
///
/// A migration that has shipped is frozen: never edit, reorder or remove one — add the next
/// (`v2`, …) at the end, written in SQL strings, never with the app's types (they change, the
/// SQL must not). docs/storage.md says how, and every schema version keeps a fixture file in
/// Tests/TallySQLiteTests/Fixtures that the tests open.
enum Migrations {
  /// One schema version: its identifier and the SQL that makes it from the one before.
  typealias Step = (identifier: String, migrate: @Sendable (Database) throws -> Void)

  /// The migrations in order.
  static let all: [Step] = [
    ("v1", v1),
    ("v2", v2),
    ("v3", v3),
    ("v4", v4),
    ("v5", v5),
    ("v6", v6),
    ("v7", v7),
    ("v8", v8),
    ("v9", v9),
    ("v10", v10),
    ("v11", v11),
    ("v12", v12),
    ("v13", v13),
    ("v14", v14),
    ("v15", v15),
    ("v16", v16),
    ("v17", v17),
  ]

  static func migrator(_ migrations: [Step] = all) -> DatabaseMigrator {
    var migrator = DatabaseMigrator()
    for migration in migrations {
      migrator.registerMigration(migration.identifier, migrate: migration.migrate)
    }
    return migrator
  }

  /// The first schema: everything SPEC 2, 5, 6 and 7 keep, and the server's tokens and
  /// sessions. Conventions: ids are lower-case UUID text, days `YYYY-MM-DD` text, instants
  /// ISO 8601 UTC text with milliseconds (`2026-03-08T06:30:00.000Z`), booleans 0/1.
  static func v1(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE users (
          id TEXT PRIMARY KEY NOT NULL,
          name TEXT NOT NULL UNIQUE,
          time_zone TEXT NOT NULL,
          day_switch_hour INTEGER NOT NULL CHECK (day_switch_hour BETWEEN 0 AND 6),
          first_weekday TEXT NOT NULL CHECK (first_weekday IN
            ('sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday')),
          locale TEXT NOT NULL,
          show_date_picker_grid INTEGER NOT NULL CHECK (show_date_picker_grid IN (0, 1)),
          show_grid_dates INTEGER NOT NULL CHECK (show_grid_dates IN (0, 1))
        ) STRICT;

        CREATE TABLE habits (
          id TEXT PRIMARY KEY NOT NULL,
          user_id TEXT NOT NULL REFERENCES users(id),
          name TEXT NOT NULL,
          icon TEXT,
          color TEXT NOT NULL,
          group_name TEXT,
          created_day TEXT NOT NULL,
          frequency TEXT NOT NULL CHECK (frequency IN ('daily', 'weekly')),
          target_per_week INTEGER CHECK (
            (frequency = 'daily' AND target_per_week IS NULL)
            OR (frequency = 'weekly' AND target_per_week BETWEEN 1 AND 6)),
          reminder TEXT NOT NULL CHECK (reminder IN ('none', 'single', 'periodic')),
          reminder_start TEXT,
          reminder_end TEXT,
          reminder_every_hours INTEGER,
          archived INTEGER NOT NULL CHECK (archived IN (0, 1)),
          sort_order INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX habits_by_user ON habits(user_id, sort_order);

        CREATE TABLE habit_entries (
          habit_id TEXT NOT NULL REFERENCES habits(id) ON DELETE CASCADE,
          day TEXT NOT NULL,
          status TEXT NOT NULL CHECK (status IN ('done', 'skipped')),
          note TEXT,
          PRIMARY KEY (habit_id, day)
        ) STRICT, WITHOUT ROWID;

        CREATE TABLE journal_entries (
          user_id TEXT NOT NULL REFERENCES users(id),
          day TEXT NOT NULL,
          text TEXT NOT NULL,
          PRIMARY KEY (user_id, day)
        ) STRICT, WITHOUT ROWID;

        CREATE TABLE chat_messages (
          id TEXT PRIMARY KEY NOT NULL,
          user_id TEXT NOT NULL REFERENCES users(id),
          day TEXT NOT NULL,
          role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
          text TEXT NOT NULL,
          sent_at TEXT NOT NULL
        ) STRICT;
        CREATE INDEX chat_messages_by_day ON chat_messages(user_id, day, sent_at);

        CREATE TABLE shows (
          id TEXT PRIMARY KEY NOT NULL,
          user_id TEXT NOT NULL REFERENCES users(id),
          title TEXT NOT NULL,
          status TEXT NOT NULL CHECK (status IN ('watching', 'paused', 'finished'))
        ) STRICT;
        CREATE INDEX shows_by_user ON shows(user_id);

        CREATE TABLE show_providers (
          show_id TEXT NOT NULL REFERENCES shows(id) ON DELETE CASCADE,
          country TEXT NOT NULL,
          position INTEGER NOT NULL,
          provider_id INTEGER NOT NULL CHECK (provider_id > 0),
          name TEXT NOT NULL,
          logo_url TEXT,
          PRIMARY KEY (show_id, country, provider_id),
          UNIQUE (show_id, country, position)
        ) STRICT, WITHOUT ROWID;

        CREATE TABLE episodes (
          show_id TEXT NOT NULL REFERENCES shows(id) ON DELETE CASCADE,
          season INTEGER NOT NULL CHECK (season >= 0),
          number INTEGER NOT NULL CHECK (number >= 0),
          title TEXT NOT NULL,
          air_day TEXT NOT NULL,
          PRIMARY KEY (show_id, season, number)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX episodes_by_air_day ON episodes(air_day);

        CREATE TABLE prices (
          user_id TEXT NOT NULL REFERENCES users(id),
          country TEXT NOT NULL,
          provider_id INTEGER NOT NULL CHECK (provider_id > 0),
          amount TEXT NOT NULL,
          currency TEXT NOT NULL,
          PRIMARY KEY (user_id, country, provider_id)
        ) STRICT, WITHOUT ROWID;

        CREATE TABLE api_tokens (
          id TEXT PRIMARY KEY NOT NULL,
          user_id TEXT NOT NULL REFERENCES users(id),
          token_hash TEXT NOT NULL UNIQUE,
          name TEXT NOT NULL,
          created_at TEXT NOT NULL,
          expires_at TEXT
        ) STRICT;
        CREATE INDEX api_tokens_by_user ON api_tokens(user_id);

        CREATE TABLE sessions (
          id TEXT PRIMARY KEY NOT NULL,
          user_id TEXT NOT NULL REFERENCES users(id),
          token_hash TEXT NOT NULL UNIQUE,
          created_at TEXT NOT NULL,
          expires_at TEXT NOT NULL
        ) STRICT;
        CREATE INDEX sessions_by_user ON sessions(user_id);
        CREATE INDEX sessions_by_expiry ON sessions(expires_at);

        CREATE TABLE reminder_deliveries (
          user_id TEXT NOT NULL REFERENCES users(id),
          occurrence_key TEXT NOT NULL,
          habit_id TEXT NOT NULL REFERENCES habits(id) ON DELETE CASCADE,
          sent_at TEXT NOT NULL,
          PRIMARY KEY (user_id, occurrence_key)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX reminder_deliveries_by_habit ON reminder_deliveries(habit_id);
        """)
  }

  /// Passwords for the server's sign-in. A user made by the command line has no row until one
  /// is set; the partial index keeps the store to one owner even with two set-ups at once.
  static func v2(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE user_credentials (
          user_id TEXT PRIMARY KEY NOT NULL REFERENCES users(id),
          password_hash TEXT NOT NULL,
          role TEXT NOT NULL CHECK (role IN ('owner', 'member')),
          updated_at TEXT NOT NULL
        ) STRICT, WITHOUT ROWID;
        CREATE UNIQUE INDEX one_owner ON user_credentials(role) WHERE role = 'owner';
        """)
  }

  /// A show fetched from TMDB keeps its TMDB id, so fetching it again updates that show; a
  /// user has each TMDB show once.
  static func v3(_ db: Database) throws {
    try db.execute(
      sql: """
        ALTER TABLE shows ADD COLUMN tmdb_id INTEGER CHECK (tmdb_id > 0);
        CREATE UNIQUE INDEX shows_by_tmdb_id ON shows(user_id, tmdb_id) WHERE tmdb_id IS NOT NULL;
        """)
  }

  /// Reminders that leave the app (issue 7): each user's calendar feed secret (its SHA-256
  /// only) and webhook, and the webhook sender's state per occurrence. Rows v1 wrote into
  /// `reminder_deliveries` were deliveries, so they read as `sent`.
  static func v4(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE feed_tokens (
          user_id TEXT PRIMARY KEY NOT NULL REFERENCES users(id),
          token_hash TEXT NOT NULL UNIQUE,
          created_at TEXT NOT NULL
        ) STRICT, WITHOUT ROWID;

        CREATE TABLE webhooks (
          user_id TEXT PRIMARY KEY NOT NULL REFERENCES users(id),
          url TEXT NOT NULL,
          kind TEXT NOT NULL CHECK (kind IN ('ntfy', 'gotify', 'json')),
          since TEXT NOT NULL
        ) STRICT, WITHOUT ROWID;

        ALTER TABLE reminder_deliveries ADD COLUMN state TEXT NOT NULL DEFAULT 'sent'
          CHECK (state IN ('sending', 'sent', 'retrying', 'failed', 'dropped', 'cancelled'));
        ALTER TABLE reminder_deliveries ADD COLUMN due_at TEXT;
        ALTER TABLE reminder_deliveries ADD COLUMN attempts INTEGER NOT NULL DEFAULT 1;
        ALTER TABLE reminder_deliveries ADD COLUMN next_attempt_at TEXT;
        CREATE INDEX reminder_deliveries_by_state ON reminder_deliveries(user_id, state);
        """)
  }
}
