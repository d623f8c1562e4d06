extension PostgresMigrations {
  /// Sign-in through an OpenID Connect provider (issue 57), as SQLite's v16 has it: the
  /// (issuer, subject) pairs linked to users, whose primary key keeps two instances from
  /// linking one pair twice, owners' invitations, kept only as their secrets' hashes, and the
  /// sign-ins begun and not yet finished, which any instance may finish.
  static let v9 = """
    CREATE TABLE provider_identities (
      issuer TEXT NOT NULL CHECK (octet_length(issuer) BETWEEN 1 AND 2048),
      subject TEXT NOT NULL CHECK (octet_length(subject) BETWEEN 1 AND 255),
      user_id UUID NOT NULL REFERENCES users(id),
      created_at TEXT NOT NULL,
      PRIMARY KEY (issuer, subject)
    );
    CREATE INDEX provider_identities_by_user ON provider_identities(user_id);

    CREATE TABLE invitations (
      token_hash TEXT PRIMARY KEY CHECK (length(token_hash) = 64),
      created_by UUID NOT NULL REFERENCES users(id),
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL CHECK (expires_at > created_at)
    );

    CREATE TABLE pending_sign_ins (
      key TEXT PRIMARY KEY CHECK (length(key) = 64),
      body TEXT NOT NULL CHECK (length(body) <= 8192),
      created_at TEXT NOT NULL
    );
    CREATE INDEX pending_sign_ins_by_age ON pending_sign_ins(created_at)
    """
}
