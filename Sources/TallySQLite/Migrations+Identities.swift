import GRDB

extension Migrations {
  /// Sign-in through an OpenID Connect provider (issue 57): the (issuer, subject) pairs linked
  /// to users, owners' invitations, kept only as their secrets' hashes, and the sign-ins begun
  /// and not yet finished. Only adds tables: every row of the version before is kept as it was.
  static func v16(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE provider_identities (
          issuer TEXT NOT NULL CHECK (length(CAST(issuer AS BLOB)) BETWEEN 1 AND 2048),
          subject TEXT NOT NULL CHECK (length(CAST(subject AS BLOB)) BETWEEN 1 AND 255),
          user_id TEXT NOT NULL REFERENCES users(id),
          created_at TEXT NOT NULL,
          PRIMARY KEY (issuer, subject)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX provider_identities_by_user ON provider_identities(user_id);

        CREATE TABLE invitations (
          token_hash TEXT PRIMARY KEY NOT NULL CHECK (length(token_hash) = 64),
          created_by TEXT NOT NULL REFERENCES users(id),
          created_at TEXT NOT NULL,
          expires_at TEXT NOT NULL CHECK (expires_at > created_at)
        ) STRICT, WITHOUT ROWID;

        CREATE TABLE pending_sign_ins (
          key TEXT PRIMARY KEY NOT NULL CHECK (length(key) = 64),
          body TEXT NOT NULL CHECK (length(body) <= 8192),
          created_at TEXT NOT NULL
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX pending_sign_ins_by_age ON pending_sign_ins(created_at);
        """)
  }
}
