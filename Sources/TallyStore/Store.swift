/// Everything Tally keeps, behind one value: what the CLI and the server are built on.
///
/// ``InMemoryStore`` and the SQLite store implement it and pass the same contract tests, so
/// another database can join without callers changing.
public protocol Store:
  UserRepository, HabitRepository, EntryRepository, JournalRepository, StreamingRepository,
  CredentialRepository, AccountRepository, ReminderDeliveryRepository, ReminderChannelRepository,
  SnapshotRepository, RevisionRepository, HistoryRepository
{}
