import GRDB

extension Migrations {
  /// Sync (issue 13, SPEC 11). Every entity a user has is mirrored in `sync_entities` with
  /// each field's hybrid clock stamp and a place in the user's change feed (`position`, from
  /// `sync_heads`). `sync_meta` holds this database's device id and the latest stamp it has
  /// made or seen. A replica keeps its server in `sync_remotes` and its unsent changes in
  /// `sync_outbox`; a journal text replaced by another is kept in `journal_revisions`.
  /// Rows that predate this version are mirrored when the database is opened (`SyncBackfill`).
  static func v6(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE sync_meta (
          id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
          device_id TEXT NOT NULL,
          latest_stamp TEXT
        ) STRICT;
        INSERT INTO sync_meta (id, device_id) VALUES (1, lower(
          hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2)
          || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2)
          || '-' || hex(randomblob(6))));

        CREATE TABLE sync_heads (
          user_id TEXT PRIMARY KEY NOT NULL REFERENCES users(id),
          position INTEGER NOT NULL
        ) STRICT, WITHOUT ROWID;

        CREATE TABLE sync_entities (
          user_id TEXT NOT NULL REFERENCES users(id),
          kind TEXT NOT NULL CHECK (kind IN
            ('settings', 'habit', 'show', 'price', 'journal', 'chat', 'entry', 'episode')),
          entity_id TEXT NOT NULL,
          fields TEXT NOT NULL,
          stamps TEXT NOT NULL,
          deleted TEXT,
          position INTEGER NOT NULL,
          PRIMARY KEY (user_id, kind, entity_id)
        ) STRICT, WITHOUT ROWID;
        CREATE UNIQUE INDEX sync_entities_by_position ON sync_entities(user_id, position);

        CREATE TABLE sync_remotes (
          user_id TEXT PRIMARY KEY NOT NULL REFERENCES users(id),
          url TEXT NOT NULL,
          token TEXT NOT NULL,
          cursor TEXT,
          last_sync_at TEXT,
          last_error TEXT
        ) STRICT, WITHOUT ROWID;

        CREATE TABLE sync_outbox (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          user_id TEXT NOT NULL REFERENCES users(id),
          change TEXT NOT NULL
        ) STRICT;
        CREATE INDEX sync_outbox_by_user ON sync_outbox(user_id, id);

        CREATE TABLE journal_revisions (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          user_id TEXT NOT NULL REFERENCES users(id),
          day TEXT NOT NULL,
          text TEXT NOT NULL,
          stamp TEXT NOT NULL,
          replaced_by TEXT NOT NULL
        ) STRICT;
        CREATE INDEX journal_revisions_by_day ON journal_revisions(user_id, day);
        """)
  }
}
