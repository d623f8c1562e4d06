import GRDB

extension Migrations {
  /// Web Push reminders (issue 14). The server's VAPID key pair (its private half; the public
  /// one is derived), each user's subscribed browsers (an endpoint is one browser, so it is
  /// unique), and the sender's state per occurrence per browser, shaped like
  /// `reminder_deliveries` so both channels are claimed and retried the same way. Only adds
  /// tables: every row of v6 is kept as it was.
  static func v7(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE vapid_keys (
          id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
          private_key BLOB NOT NULL CHECK (length(private_key) = 32),
          created_at TEXT NOT NULL
        ) STRICT;

        CREATE TABLE push_subscriptions (
          id TEXT PRIMARY KEY NOT NULL,
          user_id TEXT NOT NULL REFERENCES users(id),
          endpoint TEXT NOT NULL UNIQUE,
          p256dh BLOB NOT NULL CHECK (length(p256dh) = 65),
          auth BLOB NOT NULL CHECK (length(auth) = 16),
          name TEXT NOT NULL,
          created_at TEXT NOT NULL
        ) STRICT;
        CREATE INDEX push_subscriptions_by_user ON push_subscriptions(user_id);

        CREATE TABLE push_deliveries (
          subscription_id TEXT NOT NULL REFERENCES push_subscriptions(id) ON DELETE CASCADE,
          occurrence_key TEXT NOT NULL,
          user_id TEXT NOT NULL REFERENCES users(id),
          habit_id TEXT NOT NULL REFERENCES habits(id) ON DELETE CASCADE,
          state TEXT NOT NULL
            CHECK (state IN ('sending', 'sent', 'retrying', 'failed', 'dropped', 'cancelled')),
          due_at TEXT NOT NULL,
          attempts INTEGER NOT NULL,
          next_attempt_at TEXT,
          updated_at TEXT NOT NULL,
          PRIMARY KEY (subscription_id, occurrence_key)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX push_deliveries_by_habit ON push_deliveries(habit_id);
        CREATE INDEX push_deliveries_by_state ON push_deliveries(subscription_id, state);
        """)
  }
}
