/// Everything Tally keeps, behind one value: what the CLI and the server are built on.
///
/// The SQLite store implements it (tests use SQLite in memory rather than a hand-written twin)
/// and passes the contract tests, so another database can join without callers changing.
public protocol Store:
  UserRepository, HabitRepository, EntryRepository, JournalRepository, StreamingRepository,
  CredentialRepository, AccountRepository, ReminderDeliveryRepository, ReminderChannelRepository, PushRepository,
  SnapshotRepository, RevisionRepository, HistoryRepository, SignInAttemptRepository, PauseRepository,
  IdentityRepository, PendingSignInRepository
{
  /// Gives back what the store keeps in memory to be fast, after work far larger than a
  /// request's (an import): caches it refills as it is used again.
  func releaseMemory() async
}
