extension PostgresMigrations {
  /// Sign-in attempts counted in the database instead of each instance's memory, so guesses
  /// spread over instances meet one limit (issue 18); SQLite's v10. `key` is a digest of the
  /// name and address. Instants compare as text, byte by byte (`COLLATE "C"`), whatever the
  /// database's locale. Only adds a table: every row is kept.
  static let v4 = """
    CREATE TABLE sign_in_attempts (
      id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      key TEXT NOT NULL CHECK (length(key) BETWEEN 1 AND 128),
      attempted_at TEXT COLLATE "C" NOT NULL
    );
    CREATE INDEX sign_in_attempts_by_key ON sign_in_attempts(key, attempted_at);
    CREATE INDEX sign_in_attempts_by_time ON sign_in_attempts(attempted_at)
    """

  /// Every instance keeps who requests come from in memory (``SignInCache``): a change to a
  /// user, an API token or a session, by whatever statement, announces itself on the feed's
  /// channel when it commits, and every instance forgets what it kept. Only adds triggers.
  static let v5 = """
    CREATE FUNCTION tally_sign_ins_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('tally_feed', 'sign-ins');
      RETURN NULL;
    END
    $$;
    CREATE TRIGGER users_sign_ins AFTER UPDATE OR DELETE ON users
      FOR EACH STATEMENT EXECUTE FUNCTION tally_sign_ins_changed();
    CREATE TRIGGER api_tokens_sign_ins AFTER UPDATE OR DELETE ON api_tokens
      FOR EACH STATEMENT EXECUTE FUNCTION tally_sign_ins_changed();
    CREATE TRIGGER sessions_sign_ins AFTER UPDATE OR DELETE ON sessions
      FOR EACH STATEMENT EXECUTE FUNCTION tally_sign_ins_changed()
    """
}
