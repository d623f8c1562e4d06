import Foundation
import PostgresNIO
import TallyStore

/// Tally's schema on PostgreSQL, one named migration per version, recorded in
/// `schema_migrations`.
///
/// As for SQLite, a migration that has shipped is frozen: add the next at the end. The
/// versions are PostgreSQL's own: `v1` is everything SQLite's v1–v7 make, `v2` its v8, `v3`
/// its v9, `v4` its v10; `v5` has no SQLite counterpart (there, temporary triggers do its
/// work), nor have `v6` and `v7` (functions that save a mark round trips). All pending migrations run
/// in one transaction under an advisory lock, so instances that start together take turns
/// and the second finds the work done.
enum PostgresMigrations {
  typealias Step = (identifier: String, sql: String)

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
  ]

  /// The lock every instance takes before it looks at the schema (an arbitrary constant,
  /// "tall" in ASCII), per schema so tests in their own schemas never wait for each other.
  static let lockKey: Int32 = 0x7461_6C6C

  static func migrate(_ database: PostgresAppDatabase, _ steps: [Step] = all) async throws(StoreError) {
    let known = steps.map(\.identifier)
    let place = database.location.description
    do {
      // The database must answer within the request limit, but the migration need not: it may
      // wait for another instance's, or rewrite a large table, and a start that gives up
      // rolls it back and would give up again on every restart.
      _ = try await database.withConnection { connection in try await connection.run("SELECT 1") }
      try await database.transaction(timeLimited: false) { connection in
        // The lock first: even creating the schema races when instances start together.
        let schema = database.location.schema
        try await connection.run(
          "SELECT pg_advisory_xact_lock(\(lockKey), hashtext(coalesce(\(schema), current_schema(), '')))")
        if let schema {
          try await connection.run(PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \(schema)"))
        }
        try await connection.run(
          """
          CREATE TABLE IF NOT EXISTS schema_migrations (
            identifier TEXT PRIMARY KEY NOT NULL,
            applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
          )
          """)
        let done = try await connection.values("SELECT identifier FROM schema_migrations", as: String.self)
        let unknown = Set(done).subtracting(known)
        if !unknown.isEmpty {
          throw StoreError.newerSchema(
            path: place, version: newest(unknown),
            known: known.last ?? "none")
        }
        for step in steps where !done.contains(step.identifier) {
          for statement in statements(step.sql) {
            try await connection.run(PostgresQuery(unsafeSQL: statement))
          }
          try await connection.run("INSERT INTO schema_migrations (identifier) VALUES (\(step.identifier))")
        }
      }
    } catch let error as StoreError {
      throw error
    } catch {
      // The transaction rolled back: the schema is where it was before.
      let applied = try? await database.transaction { connection in
        try await connection.values("SELECT identifier FROM schema_migrations", as: String.self)
      }
      throw .migrationFailed(
        path: place, version: applied.map(newest) ?? "none", target: known.last ?? "none",
        reason: PostgresStore.reason(error))
    }
  }

  /// A step's statements, one at a time as the extended protocol takes them: split where a
  /// line ends in `;`, except inside a `$$`-quoted function body.
  static func statements(_ sql: String) -> [String] {
    var result: [String] = []
    var pending: [String] = []
    for piece in sql.components(separatedBy: ";\n") {
      pending.append(piece)
      let statement = pending.joined(separator: ";\n")
      guard statement.components(separatedBy: "$$").count % 2 == 1 else { continue }
      if !statement.allSatisfy(\.isWhitespace) { result.append(statement) }
      pending = []
    }
    if !pending.isEmpty { result.append(pending.joined(separator: ";\n")) }
    return result
  }

  /// The newest of identifiers like `v12`, by number.
  static func newest(_ identifiers: some Collection<String>) -> String {
    identifiers.max { (Int($0.dropFirst()) ?? 0, $0) < (Int($1.dropFirst()) ?? 0, $1) } ?? "none"
  }

  /// Conventions: ids are `uuid`; days `YYYY-MM-DD` text and instants ISO 8601 UTC text with
  /// milliseconds, exactly as SQLite keeps them, so both stores answer alike to the
  /// millisecond and a copy between them changes nothing.
  static let v1 = """
    CREATE TABLE users (
      id UUID PRIMARY KEY,
      name TEXT NOT NULL UNIQUE,
      time_zone TEXT NOT NULL,
      day_switch_hour INTEGER NOT NULL CHECK (day_switch_hour BETWEEN 0 AND 6),
      first_weekday TEXT NOT NULL CHECK (first_weekday IN
        ('sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday')),
      locale TEXT NOT NULL,
      show_date_picker_grid BOOLEAN NOT NULL,
      show_grid_dates BOOLEAN NOT NULL
    );

    CREATE TABLE habits (
      id UUID PRIMARY KEY,
      user_id UUID NOT NULL REFERENCES users(id),
      name TEXT NOT NULL,
      name_key TEXT NOT NULL,
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
      archived BOOLEAN NOT NULL,
      sort_order INTEGER NOT NULL,
      CONSTRAINT habits_name_key UNIQUE (user_id, name_key)
    );
    CREATE INDEX habits_by_user ON habits(user_id, sort_order);

    CREATE TABLE habit_entries (
      habit_id UUID NOT NULL REFERENCES habits(id) ON DELETE CASCADE,
      day TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('done', 'skipped')),
      note TEXT,
      PRIMARY KEY (habit_id, day)
    );

    CREATE TABLE journal_entries (
      user_id UUID NOT NULL REFERENCES users(id),
      day TEXT NOT NULL,
      text TEXT NOT NULL,
      PRIMARY KEY (user_id, day)
    );

    CREATE TABLE chat_messages (
      id UUID PRIMARY KEY,
      user_id UUID NOT NULL REFERENCES users(id),
      day TEXT NOT NULL,
      role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
      text TEXT NOT NULL,
      sent_at TEXT NOT NULL,
      added BIGINT GENERATED ALWAYS AS IDENTITY
    );
    CREATE INDEX chat_messages_by_day ON chat_messages(user_id, day, sent_at);

    CREATE TABLE shows (
      id UUID PRIMARY KEY,
      user_id UUID NOT NULL REFERENCES users(id),
      title TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('watching', 'paused', 'finished')),
      tmdb_id INTEGER CHECK (tmdb_id > 0)
    );
    CREATE INDEX shows_by_user ON shows(user_id);
    CREATE UNIQUE INDEX shows_by_tmdb_id ON shows(user_id, tmdb_id) WHERE tmdb_id IS NOT NULL;

    CREATE TABLE show_providers (
      show_id UUID NOT NULL REFERENCES shows(id) ON DELETE CASCADE,
      country TEXT NOT NULL,
      position INTEGER NOT NULL,
      provider_id INTEGER NOT NULL CHECK (provider_id > 0),
      name TEXT NOT NULL,
      logo_url TEXT,
      PRIMARY KEY (show_id, country, provider_id),
      UNIQUE (show_id, country, position)
    );

    CREATE TABLE episodes (
      show_id UUID NOT NULL REFERENCES shows(id) ON DELETE CASCADE,
      season INTEGER NOT NULL CHECK (season >= 0),
      number INTEGER NOT NULL CHECK (number >= 0),
      title TEXT NOT NULL,
      air_day TEXT NOT NULL,
      PRIMARY KEY (show_id, season, number)
    );
    CREATE INDEX episodes_by_air_day ON episodes(air_day);

    CREATE TABLE prices (
      user_id UUID NOT NULL REFERENCES users(id),
      country TEXT NOT NULL,
      provider_id INTEGER NOT NULL CHECK (provider_id > 0),
      amount TEXT NOT NULL,
      currency TEXT NOT NULL,
      PRIMARY KEY (user_id, country, provider_id)
    );

    CREATE TABLE api_tokens (
      id UUID PRIMARY KEY,
      user_id UUID NOT NULL REFERENCES users(id),
      token_hash TEXT NOT NULL UNIQUE,
      name TEXT NOT NULL,
      created_at TEXT NOT NULL,
      expires_at TEXT
    );
    CREATE INDEX api_tokens_by_user ON api_tokens(user_id);

    CREATE TABLE sessions (
      id UUID PRIMARY KEY,
      user_id UUID NOT NULL REFERENCES users(id),
      token_hash TEXT NOT NULL UNIQUE,
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL
    );
    CREATE INDEX sessions_by_user ON sessions(user_id);
    CREATE INDEX sessions_by_expiry ON sessions(expires_at);

    CREATE TABLE user_credentials (
      user_id UUID PRIMARY KEY REFERENCES users(id),
      password_hash TEXT NOT NULL,
      role TEXT NOT NULL CHECK (role IN ('owner', 'member')),
      updated_at TEXT NOT NULL
    );
    CREATE UNIQUE INDEX one_owner ON user_credentials(role) WHERE role = 'owner';

    CREATE TABLE reminder_deliveries (
      user_id UUID NOT NULL REFERENCES users(id),
      occurrence_key TEXT NOT NULL,
      habit_id UUID NOT NULL REFERENCES habits(id) ON DELETE CASCADE,
      sent_at TEXT NOT NULL,
      state TEXT NOT NULL DEFAULT 'sent'
        CHECK (state IN ('sending', 'sent', 'retrying', 'failed', 'dropped', 'cancelled')),
      due_at TEXT,
      attempts INTEGER NOT NULL DEFAULT 1,
      next_attempt_at TEXT,
      PRIMARY KEY (user_id, occurrence_key)
    );
    CREATE INDEX reminder_deliveries_by_habit ON reminder_deliveries(habit_id);
    CREATE INDEX reminder_deliveries_by_state ON reminder_deliveries(user_id, state);

    CREATE TABLE feed_tokens (
      user_id UUID PRIMARY KEY REFERENCES users(id),
      token_hash TEXT NOT NULL UNIQUE,
      created_at TEXT NOT NULL
    );

    CREATE TABLE webhooks (
      user_id UUID PRIMARY KEY REFERENCES users(id),
      url TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('ntfy', 'gotify', 'json')),
      since TEXT NOT NULL
    );

    CREATE TABLE vapid_keys (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      private_key BYTEA NOT NULL CHECK (length(private_key) = 32),
      created_at TEXT NOT NULL
    );

    CREATE TABLE push_subscriptions (
      id UUID PRIMARY KEY,
      user_id UUID NOT NULL REFERENCES users(id),
      endpoint TEXT NOT NULL UNIQUE,
      p256dh BYTEA NOT NULL CHECK (length(p256dh) = 65),
      auth BYTEA NOT NULL CHECK (length(auth) = 16),
      name TEXT NOT NULL,
      created_at TEXT NOT NULL,
      added BIGINT GENERATED ALWAYS AS IDENTITY
    );
    CREATE INDEX push_subscriptions_by_user ON push_subscriptions(user_id);

    CREATE TABLE push_deliveries (
      subscription_id UUID NOT NULL REFERENCES push_subscriptions(id) ON DELETE CASCADE,
      occurrence_key TEXT NOT NULL,
      user_id UUID NOT NULL REFERENCES users(id),
      habit_id UUID NOT NULL REFERENCES habits(id) ON DELETE CASCADE,
      state TEXT NOT NULL
        CHECK (state IN ('sending', 'sent', 'retrying', 'failed', 'dropped', 'cancelled')),
      due_at TEXT NOT NULL,
      attempts INTEGER NOT NULL,
      next_attempt_at TEXT,
      updated_at TEXT NOT NULL,
      PRIMARY KEY (subscription_id, occurrence_key)
    );
    CREATE INDEX push_deliveries_by_habit ON push_deliveries(habit_id);
    CREATE INDEX push_deliveries_by_state ON push_deliveries(subscription_id, state);

    -- Sync (docs/sync.md). The device id is the database's, whichever instance stamps. Each
    -- user's feed position and latest stamp are one row, locked by every write of theirs, so
    -- instances never hand out one position twice and one user's writes never wait for another's.
    CREATE TABLE sync_meta (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      device_id UUID NOT NULL
    );
    INSERT INTO sync_meta (id, device_id) VALUES (1, gen_random_uuid());

    CREATE TABLE sync_heads (
      user_id UUID PRIMARY KEY REFERENCES users(id),
      position BIGINT NOT NULL,
      latest_stamp TEXT
    );

    CREATE TABLE sync_entities (
      user_id UUID NOT NULL REFERENCES users(id),
      kind TEXT NOT NULL CHECK (kind IN
        ('settings', 'habit', 'show', 'price', 'journal', 'chat', 'entry', 'episode')),
      entity_id TEXT NOT NULL,
      fields TEXT NOT NULL,
      stamps TEXT NOT NULL,
      deleted TEXT,
      position BIGINT NOT NULL,
      PRIMARY KEY (user_id, kind, entity_id)
    );
    CREATE UNIQUE INDEX sync_entities_by_position ON sync_entities(user_id, position);

    CREATE TABLE sync_remotes (
      user_id UUID PRIMARY KEY REFERENCES users(id),
      url TEXT NOT NULL,
      token TEXT NOT NULL,
      cursor TEXT,
      last_sync_at TEXT,
      last_error TEXT
    );

    CREATE TABLE sync_outbox (
      id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id UUID NOT NULL REFERENCES users(id),
      change TEXT NOT NULL
    );
    CREATE INDEX sync_outbox_by_user ON sync_outbox(user_id, id);

    CREATE TABLE journal_revisions (
      id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id UUID NOT NULL REFERENCES users(id),
      day TEXT NOT NULL,
      text TEXT NOT NULL,
      stamp TEXT NOT NULL,
      replaced_by TEXT NOT NULL
    );
    CREATE INDEX journal_revisions_by_day ON journal_revisions(user_id, day);
    """
}
