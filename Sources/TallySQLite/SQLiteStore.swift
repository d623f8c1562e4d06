import Foundation
import GRDB
import TallyCore
import TallyStore
import TallySync

/// The ``Store`` on SQLite: every method is one read or one write transaction on an
/// ``AppDatabase``, and every query names the user, so one user's rows never reach another.
public struct SQLiteStore: Store {
  public let database: AppDatabase
  /// Read only to stamp changes for sync (the hybrid clock's physical part).
  public let clock: @Sendable () -> Date

  public init(_ database: AppDatabase, clock: @escaping @Sendable () -> Date = { Date() }) {
    self.database = database
    self.clock = clock
  }

  /// Runs `body` in a write transaction with a recorder for the user's change feed.
  func write<T: Sendable>(
    recordingFor user: UUID, _ body: @escaping @Sendable (Database, SyncRecorder) throws -> T
  ) async throws -> T {
    let now = clock()
    return try await write { db in
      try db.requireUser(user)
      return try body(db, try SyncRecorder(db, user: user, now: now))
    }
  }

  /// Runs `body` in a write transaction: all of it is committed, or none.
  func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
    do {
      let result = try await database.writer.write(body)
      database.changes.recordWrite()
      return result
    } catch {
      throw Self.storeError(error)
    }
  }

  public func revision() async throws -> StoreRevision {
    do {
      return try database.revision()
    } catch {
      throw Self.storeError(error)
    }
  }

  func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
    do {
      return try await database.reader.read(body)
    } catch {
      throw Self.storeError(error)
    }
  }

  static func storeError(_ error: any Error) -> any Error {
    switch error {
    case let error as StoreError:
      return error
    case let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT:
      return StoreError.conflict("the change breaks a rule of the database (\(AppDatabase.reason(error)))")
    case let error as DatabaseError:
      return StoreError.storage(AppDatabase.reason(error))
    default:
      return error
    }
  }
}

// MARK: - Ownership checks, inside a transaction

extension Database {
  func requireUser(_ id: UUID) throws {
    guard try UserRecord.exists(self, key: id.storeText) else { throw StoreError.notFound(.user(id)) }
  }

  /// Inserts a checked user, naming the id or the name that is taken.
  func insertUser(_ user: User) throws {
    guard try !UserRecord.exists(self, key: user.id.storeText) else {
      throw StoreError.conflict("a user with id \(user.id.storeText) already exists")
    }
    guard try UserRecord.filter(UserRecord.Columns.name == user.name).fetchCount(self) == 0 else {
      throw StoreError.conflict("a user named '\(user.name)' already exists")
    }
    try UserRecord(user).insert(self)
    // A new user's settings are where they start, not an edit: any real change wins.
    try SyncRecorder(genesisIn: self, user: user.id).settings(user.settings)
  }

  func ownedHabit(_ id: UUID, of user: UUID) throws -> HabitRecord {
    guard
      let record = try HabitRecord
        .filter(HabitRecord.Columns.id == id.storeText && HabitRecord.Columns.userID == user.storeText)
        .fetchOne(self)
    else { throw StoreError.notFound(.habit(id)) }
    return record
  }

  func ownedShow(_ id: UUID, of user: UUID) throws -> ShowRecord {
    guard
      let record = try ShowRecord
        .filter(ShowRecord.Columns.id == id.storeText && ShowRecord.Columns.userID == user.storeText)
        .fetchOne(self)
    else { throw StoreError.notFound(.show(id)) }
    return record
  }
}

// MARK: - Users

extension SQLiteStore {
  public func createUser(_ user: User) async throws -> User {
    let user = try StoreError.validating { () throws(ValidationError) in
      try User(id: user.id, name: user.name, settings: user.settings)
    }
    return try await write { db in
      try db.insertUser(user)
      return user
    }
  }

  public func user(id: UUID) async throws -> User {
    try await read { db in
      guard let record = try UserRecord.fetchOne(db, key: id.storeText) else {
        throw StoreError.notFound(.user(id))
      }
      return try record.user()
    }
  }

  public func user(named name: String) async throws -> User {
    let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
    return try await read { db in
      guard let record = try UserRecord.filter(UserRecord.Columns.name == name).fetchOne(db) else {
        throw StoreError.notFound(.userNamed(name))
      }
      return try record.user()
    }
  }

  public func users() async throws -> [User] {
    try await read { db in
      try UserRecord.fetchAll(db).map { record throws(StoreError) in try record.user() }
        .sorted(by: StoreOrder.users)
    }
  }

  public func updateSettings(_ settings: UserSettings, for user: UUID) async throws -> User {
    let settings = try StoreError.validating { () throws(ValidationError) in try settings.validated() }
    let now = clock()
    return try await write { db in
      guard let record = try UserRecord.fetchOne(db, key: user.storeText) else {
        throw StoreError.notFound(.user(user))
      }
      var updated = try record.user()
      updated.settings = settings
      try UserRecord(updated).update(db)
      try SyncRecorder(db, user: user, now: now).settings(settings)
      return updated
    }
  }
}

// MARK: - Habits

extension SQLiteStore {
  public func createHabit(_ habit: Habit, for user: UUID) async throws -> Habit {
    let habit = try StoreError.validating { () throws(ValidationError) in try habit.validated() }
    return try await write(recordingFor: user) { db, sync in
      guard try !HabitRecord.exists(db, key: habit.id.storeText) else {
        throw StoreError.conflict("a habit with id \(habit.id.storeText) already exists")
      }
      try HabitRecord(habit, user: user).write(db, inserting: true)
      try sync.habit(habit)
      return habit
    }
  }

  public func habit(id: UUID, for user: UUID) async throws -> Habit {
    try await read { db in try db.ownedHabit(id, of: user).habit() }
  }

  public func habits(for user: UUID, includingArchived: Bool) async throws -> [Habit] {
    try await read { db in try Self.habits(db, user: user, includingArchived: includingArchived) }
  }

  static func habits(_ db: Database, user: UUID, includingArchived: Bool) throws -> [Habit] {
    try db.requireUser(user)
    var request = HabitRecord.filter(HabitRecord.Columns.userID == user.storeText)
    if !includingArchived {
      request = request.filter(HabitRecord.Columns.archived == false)
    }
    return try request.fetchAll(db).map { record throws(StoreError) in try record.habit() }
      .sorted(by: StoreOrder.habits)
  }

  public func updateHabit(_ habit: Habit, for user: UUID) async throws -> Habit {
    let habit = try StoreError.validating { () throws(ValidationError) in try habit.validated() }
    return try await write(recordingFor: user) { db, sync in
      _ = try db.ownedHabit(habit.id, of: user)
      try HabitRecord(habit, user: user).write(db, inserting: false)
      try sync.habit(habit)
      return habit
    }
  }

  public func setArchived(_ archived: Bool, habit id: UUID, for user: UUID) async throws -> Habit {
    try await write(recordingFor: user) { db, sync in
      var habit = try db.ownedHabit(id, of: user).habit()
      habit.archived = archived
      try HabitRecord(habit, user: user).write(db, inserting: false)
      try sync.habit(habit)
      return habit
    }
  }

  public func deleteHabit(id: UUID, for user: UUID) async throws {
    try await write(recordingFor: user) { db, sync in
      // Entries and reminder deliveries go with it: ON DELETE CASCADE.
      let deleted = try HabitRecord
        .filter(HabitRecord.Columns.id == id.storeText && HabitRecord.Columns.userID == user.storeText)
        .deleteAll(db)
      guard deleted == 1 else { throw StoreError.notFound(.habit(id)) }
      try sync.habitDeleted(id)
    }
  }

  public func reorderHabits(_ ids: [UUID], for user: UUID) async throws -> [Habit] {
    try await write(recordingFor: user) { db, sync in
      let current = try Self.habits(db, user: user, includingArchived: true)
      let order = try HabitReordering.order(current.map(\.id), moving: ids)
      let statement = try db.cachedStatement(sql: "UPDATE habits SET sort_order = ? WHERE id = ?")
      for (position, id) in order.enumerated() {
        try statement.execute(arguments: [position, id.storeText])
      }
      let reordered = try Self.habits(db, user: user, includingArchived: true)
      for habit in reordered { try sync.habit(habit) }
      return reordered
    }
  }
}

// MARK: - Entries

extension SQLiteStore {
  @discardableResult
  public func setDays(
    _ days: [Day], of habit: UUID, to mark: DayMark, note: String?, for user: UUID
  ) async throws -> [HabitEntry] {
    let days = Set(days).sorted()
    // A given note is the same for every day, so it is checked once, before the transaction.
    let newNote = try StoreError.validating { () throws(ValidationError) in
      try EntryNote.resolve(note, keeping: nil)
    }
    return try await write(recordingFor: user) { db, sync in
      _ = try db.ownedHabit(habit, of: user)
      guard let first = days.first, let last = days.last else { return [] }
      let habitText = habit.storeText
      if let status = mark.status {
        let sql =
          note == nil
          ? """
            INSERT INTO habit_entries (habit_id, day, status, note) VALUES (?, ?, ?, NULL)
            ON CONFLICT (habit_id, day) DO UPDATE SET status = excluded.status
            """
          : """
            INSERT INTO habit_entries (habit_id, day, status, note) VALUES (?, ?, ?, ?)
            ON CONFLICT (habit_id, day) DO UPDATE SET status = excluded.status, note = excluded.note
            """
        let statement = try db.cachedStatement(sql: sql)
        for day in days {
          var arguments: StatementArguments = [habitText, day.description, status.rawValue]
          if note != nil { arguments += [newNote] }
          try statement.execute(arguments: arguments)
        }
      } else {
        let statement = try db.cachedStatement(
          sql: "DELETE FROM habit_entries WHERE habit_id = ? AND day = ?")
        for day in days {
          try statement.execute(arguments: [habitText, day.description])
          try sync.entry(habit, day, status: nil, note: nil)
        }
        return []
      }
      let wanted = Set(days)
      let written = try Self.entries(db, habit: habitText, in: first...last)
        .filter { wanted.contains($0.day) }
      for entry in written { try sync.entry(habit, entry.day, status: entry.status, note: entry.note) }
      return written
    }
  }

  static func entries(_ db: Database, habit: String, in range: ClosedRange<Day>?) throws
    -> [HabitEntry]
  {
    var request = EntryRecord.filter(EntryRecord.Columns.habitID == habit)
    if let range {
      request = request.filter(
        EntryRecord.Columns.day >= range.lowerBound.description
          && EntryRecord.Columns.day <= range.upperBound.description)
    }
    return try request.order(EntryRecord.Columns.day).fetchAll(db)
      .map { record throws(StoreError) in try record.entry() }
  }

  public func entries(of habit: UUID, in range: ClosedRange<Day>?, for user: UUID) async throws
    -> [HabitEntry]
  {
    try await read { db in
      _ = try db.ownedHabit(habit, of: user)
      return try Self.entries(db, habit: habit.storeText, in: range)
    }
  }

  public func entries(in range: ClosedRange<Day>, for user: UUID) async throws
    -> [UUID: [HabitEntry]]
  {
    try await read { db in try Self.entries(db, in: range, user: user) }
  }

  static func entries(_ db: Database, in range: ClosedRange<Day>, user: UUID) throws
    -> [UUID: [HabitEntry]]
  {
    try db.requireUser(user)
    let records = try EntryRecord.fetchAll(
      db,
      sql: """
        SELECT e.* FROM habit_entries e JOIN habits h ON h.id = e.habit_id
        WHERE h.user_id = ? AND e.day BETWEEN ? AND ?
        ORDER BY e.habit_id, e.day
        """,
      arguments: [user.storeText, range.lowerBound.description, range.upperBound.description])
    var result: [UUID: [HabitEntry]] = [:]
    // Rows come ordered by habit, so each habit's id is parsed once, not once per entry.
    var current: (text: String, id: UUID)?
    for record in records {
      if current?.text != record.habitID {
        current = (record.habitID, try Stored.uuid(record.habitID, "habit_entries.habit_id"))
      }
      result[current!.id, default: []].append(try record.entry())
    }
    return result
  }
}

// MARK: - Journal

extension SQLiteStore {
  public func setJournalEntry(_ entry: JournalEntry, for user: UUID) async throws {
    try await write(recordingFor: user) { db, sync in
      try JournalEntryRecord(entry, user: user).save(db)
      try sync.journal(entry.day, text: entry.text)
    }
  }

  public func clearJournalEntry(on day: Day, for user: UUID) async throws {
    try await write(recordingFor: user) { db, sync in
      _ = try JournalEntryRecord.deleteOne(
        db, key: ["user_id": user.storeText, "day": day.description])
      try sync.journal(day, text: nil)
    }
  }

  public func journalEntry(on day: Day, for user: UUID) async throws -> JournalEntry? {
    try await read { db in
      try db.requireUser(user)
      return try JournalEntryRecord.fetchOne(
        db, key: ["user_id": user.storeText, "day": day.description]
      )?.entry()
    }
  }

  public func journalEntries(in range: ClosedRange<Day>, for user: UUID) async throws
    -> [JournalEntry]
  {
    try await read { db in try Self.journalEntries(db, in: range, user: user) }
  }

  static func journalEntries(_ db: Database, in range: ClosedRange<Day>, user: UUID) throws
    -> [JournalEntry]
  {
    try db.requireUser(user)
    typealias C = JournalEntryRecord.Columns
    return try JournalEntryRecord
      .filter(
        C.userID == user.storeText && C.day >= range.lowerBound.description
          && C.day <= range.upperBound.description)
      .order(C.day)
      .fetchAll(db)
      .map { record throws(StoreError) in try record.entry() }
  }

  public func addChatMessage(_ message: ChatMessage, for user: UUID) async throws {
    try await write(recordingFor: user) { db, sync in
      guard try !ChatMessageRecord.exists(db, key: message.id.storeText) else {
        throw StoreError.conflict("a chat message with id \(message.id.storeText) already exists")
      }
      try ChatMessageRecord(message, user: user).insert(db)
      try sync.chat(message)
    }
  }

  public func chatMessages(on day: Day, for user: UUID) async throws -> [ChatMessage] {
    try await chatMessages(in: day...day, for: user)
  }

  public func chatMessages(in range: ClosedRange<Day>, for user: UUID) async throws
    -> [ChatMessage]
  {
    try await read { db in try Self.chatMessages(db, in: range, user: user) }
  }

  static func chatMessages(_ db: Database, in range: ClosedRange<Day>, user: UUID) throws
    -> [ChatMessage]
  {
    try db.requireUser(user)
    typealias C = ChatMessageRecord.Columns
    return try ChatMessageRecord
      .filter(
        C.userID == user.storeText && C.day >= range.lowerBound.description
          && C.day <= range.upperBound.description)
      .order(C.day, C.sentAt, Column.rowID)
      .fetchAll(db)
      .map { record throws(StoreError) in try record.message() }
  }

  public func journalActivity(in range: ClosedRange<Day>, for user: UUID) async throws
    -> JournalActivity
  {
    try await read { db in
      JournalActivity(
        entries: try Self.journalEntries(db, in: range, user: user),
        messages: try Self.chatMessages(db, in: range, user: user))
    }
  }
}

// MARK: - Streaming

extension SQLiteStore {
  public func saveShow(_ show: Show, for user: UUID) async throws {
    try ShowRules.checkProviders(show)
    try await write(recordingFor: user) { db, sync in
      let record = ShowRecord(show, user: user)
      if let tmdbID = show.tmdbID,
        try ShowRecord.filter(
          ShowRecord.Columns.userID == record.userID && ShowRecord.Columns.tmdbID == tmdbID
            && ShowRecord.Columns.id != record.id
        ).fetchCount(db) > 0
      {
        throw StoreError.conflict("another of your shows has TMDB id \(tmdbID)")
      }
      if let existing = try ShowRecord.fetchOne(db, key: record.id) {
        guard existing.userID == record.userID else {
          throw StoreError.conflict("a show with id \(record.id) already exists")
        }
        try record.update(db)
        _ = try ShowProviderRecord.filter(ShowProviderRecord.Columns.showID == record.id)
          .deleteAll(db)
      } else {
        try record.insert(db)
      }
      for provider in ShowProviderRecord.records(show) {
        try provider.insert(db)
      }
      try sync.show(show)
    }
  }

  public func show(id: UUID, for user: UUID) async throws -> Show {
    try await read { db in
      let record = try db.ownedShow(id, of: user)
      let providers = try ShowProviderRecord
        .filter(ShowProviderRecord.Columns.showID == record.id).fetchAll(db)
      return try record.show(providers: providers)
    }
  }

  public func shows(for user: UUID) async throws -> [Show] {
    try await read { db in try Self.shows(db, user: user) }
  }

  static func shows(_ db: Database, user: UUID) throws -> [Show] {
    try db.requireUser(user)
    let records = try ShowRecord.filter(ShowRecord.Columns.userID == user.storeText).fetchAll(db)
    let providers = try ShowProviderRecord.fetchAll(
      db,
      sql: """
        SELECT p.* FROM show_providers p JOIN shows s ON s.id = p.show_id WHERE s.user_id = ?
        """,
      arguments: [user.storeText])
    let byShow = Dictionary(grouping: providers, by: \.showID)
    return try records.map { record throws(StoreError) in
      try record.show(providers: byShow[record.id] ?? [])
    }
    .sorted(by: StoreOrder.shows)
  }

  public func deleteShow(id: UUID, for user: UUID) async throws {
    try await write(recordingFor: user) { db, sync in
      // Providers and episodes go with it: ON DELETE CASCADE.
      let deleted = try ShowRecord
        .filter(ShowRecord.Columns.id == id.storeText && ShowRecord.Columns.userID == user.storeText)
        .deleteAll(db)
      guard deleted == 1 else { throw StoreError.notFound(.show(id)) }
      try sync.showDeleted(id)
    }
  }

  public func saveEpisodes(_ episodes: [Episode], for user: UUID) async throws {
    try await write(recordingFor: user) { db, sync in
      for show in Set(episodes.map(\.showID)) {
        _ = try db.ownedShow(show, of: user)
      }
      let statement = try db.cachedStatement(
        sql: """
          INSERT INTO episodes (show_id, season, number, title, air_day) VALUES (?, ?, ?, ?, ?)
          ON CONFLICT (show_id, season, number)
          DO UPDATE SET title = excluded.title, air_day = excluded.air_day
          """)
      for episode in episodes {
        let record = EpisodeRecord(episode)
        try statement.execute(arguments: [
          record.showID, record.season, record.number, record.title, record.airDay,
        ])
        try sync.episode(episode)
      }
    }
  }

  public func episodes(of show: UUID, for user: UUID) async throws -> [Episode] {
    try await read { db in
      _ = try db.ownedShow(show, of: user)
      typealias C = EpisodeRecord.Columns
      return try EpisodeRecord.filter(C.showID == show.storeText)
        .order(C.season, C.number)
        .fetchAll(db)
        .map { record throws(StoreError) in try record.episode() }
    }
  }

  public func episodes(airingIn range: ClosedRange<Day>, for user: UUID) async throws -> [Episode] {
    try await read { db in
      try db.requireUser(user)
      return try EpisodeRecord.fetchAll(
        db,
        sql: """
          SELECT e.* FROM episodes e JOIN shows s ON s.id = e.show_id
          WHERE s.user_id = ? AND e.air_day BETWEEN ? AND ?
          """,
        arguments: [user.storeText, range.lowerBound.description, range.upperBound.description]
      )
      .map { record throws(StoreError) in try record.episode() }
      .sorted(by: StoreOrder.episodes)
    }
  }

  public func setPrice(_ price: Price, for user: UUID) async throws {
    try await write(recordingFor: user) { db, sync in
      try PriceRecord(price, user: user).save(db)
      try sync.price(country: price.country, providerID: price.providerID, price)
    }
  }

  public func seedPrices(_ table: PriceTable, for user: UUID) async throws {
    try await write { db in
      try db.requireUser(user)
      let sync = try SyncRecorder(genesisIn: db, user: user)
      for price in table.prices {
        try PriceRecord(price, user: user).save(db)
        try sync.price(country: price.country, providerID: price.providerID, price)
      }
    }
  }

  public func removePrice(country: String, providerID: Int, for user: UUID) async throws {
    try await write(recordingFor: user) { db, sync in
      // Like PriceTable.removePrice: a code that is no country prices nothing to remove.
      guard let code = try? CountryCode.normalized(country) else { return }
      guard try PriceRecord.deleteOne(
        db, key: ["user_id": user.storeText, "country": code, "provider_id": providerID])
      else { return }
      try sync.price(country: code, providerID: providerID, nil)
    }
  }

  public func priceTable(for user: UUID) async throws -> PriceTable {
    try await read { db in try Self.priceTable(db, user: user) }
  }

  static func priceTable(_ db: Database, user: UUID) throws -> PriceTable {
    try db.requireUser(user)
    let prices = try PriceRecord.filter(PriceRecord.Columns.userID == user.storeText)
      .fetchAll(db)
      .map { record throws(StoreError) in try record.price() }
    return try Stored.valid("prices") { () throws(ValidationError) in try PriceTable(prices) }
  }
}

// MARK: - Credentials

extension SQLiteStore {
  public func createAPIToken(_ token: APIToken) async throws -> APIToken {
    let token = try StoreError.validating { () throws(ValidationError) in
      try APIToken(
        id: token.id, userID: token.userID, tokenHash: token.tokenHash, name: token.name,
        createdAt: token.createdAt, expiresAt: token.expiresAt)
    }
    return try await write { db in
      try db.requireUser(token.userID)
      guard try !APITokenRecord.exists(db, key: token.id.storeText) else {
        throw StoreError.conflict("an API token with id \(token.id.storeText) already exists")
      }
      guard
        try APITokenRecord.filter(APITokenRecord.Columns.tokenHash == token.tokenHash)
          .fetchCount(db) == 0
      else { throw StoreError.conflict("an API token with this hash already exists") }
      try APITokenRecord(token).insert(db)
      return token
    }
  }

  public func apiToken(hash: String, at now: Date) async throws -> APIToken? {
    let (hash, now) = (hash.lowercased(), StoredInstant.normalized(now))
    return try await read { db in
      try APITokenRecord.filter(APITokenRecord.Columns.tokenHash == hash).fetchOne(db)?.token()
    }.flatMap { $0.isValid(at: now) ? $0 : nil }
  }

  public func apiTokens(for user: UUID) async throws -> [APIToken] {
    try await read { db in
      try db.requireUser(user)
      return try APITokenRecord.filter(APITokenRecord.Columns.userID == user.storeText)
        .fetchAll(db)
        .map { record throws(StoreError) in try record.token() }
        .sorted(by: CredentialOrder.tokens)
    }
  }

  public func deleteAPIToken(id: UUID, for user: UUID) async throws {
    try await write { db in
      typealias C = APITokenRecord.Columns
      let deleted = try APITokenRecord
        .filter(C.id == id.storeText && C.userID == user.storeText).deleteAll(db)
      guard deleted == 1 else { throw StoreError.notFound(.apiToken(id)) }
    }
  }

  public func createSession(_ session: BrowserSession) async throws -> BrowserSession {
    let session = try StoreError.validating { () throws(ValidationError) in
      try BrowserSession(
        id: session.id, userID: session.userID, tokenHash: session.tokenHash,
        createdAt: session.createdAt, expiresAt: session.expiresAt)
    }
    return try await write { db in
      try db.requireUser(session.userID)
      guard try !SessionRecord.exists(db, key: session.id.storeText) else {
        throw StoreError.conflict("a session with id \(session.id.storeText) already exists")
      }
      guard
        try SessionRecord.filter(SessionRecord.Columns.tokenHash == session.tokenHash)
          .fetchCount(db) == 0
      else { throw StoreError.conflict("a session with this hash already exists") }
      try SessionRecord(session).insert(db)
      return session
    }
  }

  public func session(hash: String, at now: Date) async throws -> BrowserSession? {
    let (hash, now) = (hash.lowercased(), StoredInstant.normalized(now))
    return try await read { db in
      try SessionRecord.filter(SessionRecord.Columns.tokenHash == hash).fetchOne(db)?.session()
    }.flatMap { $0.isValid(at: now) ? $0 : nil }
  }

  public func deleteSession(id: UUID, for user: UUID) async throws {
    try await write { db in
      typealias C = SessionRecord.Columns
      let deleted = try SessionRecord
        .filter(C.id == id.storeText && C.userID == user.storeText).deleteAll(db)
      guard deleted == 1 else { throw StoreError.notFound(.session(id)) }
    }
  }

  public func deleteSessions(expiredAt now: Date) async throws -> Int {
    let cutoff = InstantText.text(now)
    return try await write { db in
      try SessionRecord.filter(SessionRecord.Columns.expiresAt <= cutoff).deleteAll(db)
    }
  }
}

// MARK: - Reminder deliveries

extension SQLiteStore {
  public func recordDelivery(_ key: ReminderOccurrenceKey, sentAt: Date, for user: UUID)
    async throws -> Bool
  {
    try await write { db in
      _ = try db.ownedHabit(key.habitID, of: user)
      try db.execute(
        sql: """
          INSERT INTO reminder_deliveries (user_id, occurrence_key, habit_id, sent_at)
          VALUES (?, ?, ?, ?) ON CONFLICT (user_id, occurrence_key) DO NOTHING
          """,
        arguments: [
          user.storeText, key.description, key.habitID.storeText, InstantText.text(sentAt),
        ])
      return db.changesCount == 1
    }
  }

  public func delivery(_ key: ReminderOccurrenceKey, for user: UUID) async throws -> Date? {
    try await read { db in
      try db.requireUser(user)
      return try ReminderDeliveryRecord.fetchOne(
        db, key: ["user_id": user.storeText, "occurrence_key": key.description]
      ).map { record throws(StoreError) in
        try Stored.instant(record.sentAt, "delivery \(record.occurrenceKey) sent_at")
      }
    }
  }

  public func deleteDeliveries(sentBefore instant: Date, for user: UUID) async throws -> Int {
    let cutoff = InstantText.text(instant)
    return try await write { db in
      try db.requireUser(user)
      typealias C = ReminderDeliveryRecord.Columns
      return try ReminderDeliveryRecord
        .filter(C.userID == user.storeText && C.sentAt < cutoff).deleteAll(db)
    }
  }
}

// MARK: - Snapshots

extension SQLiteStore {
  public func snapshot(of user: UUID) async throws -> UserSnapshot {
    // One read transaction: a writer committing meanwhile is seen entirely or not at all.
    try await read { db in
      guard let record = try UserRecord.fetchOne(db, key: user.storeText) else {
        throw StoreError.notFound(.user(user))
      }
      let entries = try Self.entries(db, in: Day.allTime, user: user)
      let shows = try Self.shows(db, user: user)
      let episodes = try EpisodeRecord.fetchAll(
        db,
        sql: """
          SELECT e.* FROM episodes e JOIN shows s ON s.id = e.show_id
          WHERE s.user_id = ? ORDER BY e.season, e.number
          """,
        arguments: [user.storeText]
      )
      .map { record throws(StoreError) in try record.episode() }
      let episodesByShow = Dictionary(grouping: episodes, by: \.showID)
      return UserSnapshot(
        settings: try record.user().settings,
        habits: try Self.habits(db, user: user, includingArchived: true).map { habit in
          UserSnapshot.HabitWithEntries(habit: habit, entries: entries[habit.id] ?? [])
        },
        journal: try Self.journalEntries(db, in: Day.allTime, user: user),
        chat: try Self.chatMessages(db, in: Day.allTime, user: user),
        shows: shows,
        episodes: shows.flatMap { episodesByShow[$0.id] ?? [] },
        prices: try Self.priceTable(db, user: user).prices)
    }
  }

  @discardableResult
  public func restore(_ snapshot: UserSnapshot, into target: RestoreTarget) async throws -> User {
    let snapshot = try snapshot.checked()
    let now = clock()
    return try await write { db in
      let user: User
      switch target {
      case .newUser(let id, let name):
        user = try StoreError.validating { () throws(ValidationError) in
          try User(id: id, name: name, settings: snapshot.settings)
        }
        try db.insertUser(user)
      case .emptyUser(let id):
        guard let record = try UserRecord.fetchOne(db, key: id.storeText) else {
          throw StoreError.notFound(.user(id))
        }
        var existing = try record.user()
        guard try !Self.holdsData(db, user: id) else { throw StoreError.userHasData(existing) }
        existing.settings = snapshot.settings
        try UserRecord(existing).update(db)
        let sync = try SyncRecorder(db, user: id, now: now)
        for price in try Self.priceTable(db, user: id).prices {
          try sync.price(country: price.country, providerID: price.providerID, nil)
        }
        _ = try PriceRecord.filter(PriceRecord.Columns.userID == id.storeText).deleteAll(db)
        user = existing
      }
      // Ids another record already has (this server may hold the account the file came
      // from) are replaced, inside this transaction so no writer can take one meanwhile.
      let fresh = try snapshot.withFreshIDs { kind, id in
        switch kind {
        case .habit: return try HabitRecord.exists(db, key: id.storeText)
        case .chatMessage: return try ChatMessageRecord.exists(db, key: id.storeText)
        case .show: return try ShowRecord.exists(db, key: id.storeText)
        }
      }
      let entry = try db.cachedStatement(
        sql: "INSERT INTO habit_entries (habit_id, day, status, note) VALUES (?, ?, ?, ?)")
      for item in fresh.habits {
        let id = item.habit.id.storeText
        guard try !HabitRecord.exists(db, key: id) else {
          throw StoreError.conflict("a habit with id \(id) already exists")
        }
        try HabitRecord(item.habit, user: user.id).write(db, inserting: true)
        for row in item.entries {
          try entry.execute(arguments: [id, row.day.description, row.status.rawValue, row.note])
        }
      }
      for journal in fresh.journal {
        try JournalEntryRecord(journal, user: user.id).insert(db)
      }
      for message in fresh.chat {
        try ChatMessageRecord(message, user: user.id).insert(db)
      }
      for show in fresh.shows {
        try ShowRecord(show, user: user.id).insert(db)
        for provider in ShowProviderRecord.records(show) {
          try provider.insert(db)
        }
      }
      for episode in fresh.episodes {
        try EpisodeRecord(episode).insert(db)
      }
      for price in fresh.prices {
        try PriceRecord(price, user: user.id).insert(db)
      }
      try SyncMirror.record(db, user: user.id, with: try SyncRecorder(db, user: user.id, now: now))
      return user
    }
  }

  /// Whether the user has any habit, journal entry, chat message or show.
  static func holdsData(_ db: Database, user: UUID) throws -> Bool {
    try Bool.fetchOne(
      db,
      sql: """
        SELECT EXISTS (SELECT 1 FROM habits WHERE user_id = ?1)
          OR EXISTS (SELECT 1 FROM journal_entries WHERE user_id = ?1)
          OR EXISTS (SELECT 1 FROM chat_messages WHERE user_id = ?1)
          OR EXISTS (SELECT 1 FROM shows WHERE user_id = ?1)
        """,
      arguments: [user.storeText]) ?? false
  }
}

// MARK: - History

extension SQLiteStore {
  @discardableResult
  public func addHistory(_ additions: HistoryAdditions, for user: UUID) async throws -> HistoryAdded {
    let additions = try additions.checked()
    return try await write(recordingFor: user) { db, sync in
      let existing = try Self.habits(db, user: user, includingArchived: true)
      let insertNew = try db.cachedStatement(
        sql: "INSERT INTO habit_entries (habit_id, day, status, note) VALUES (?, ?, ?, ?)")
      var added = 0
      for item in additions.newHabits {
        let id = item.habit.id.storeText
        guard try !HabitRecord.exists(db, key: id) else {
          throw StoreError.conflict("a habit with id \(id) already exists")
        }
        try HabitRules.checkNameFree(item.habit.name, among: existing)
        try HabitRecord(item.habit, user: user).write(db, inserting: true)
        try sync.habit(item.habit)
        for entry in item.entries {
          try insertNew.execute(arguments: [id, entry.day.description, entry.status.rawValue, entry.note])
          try sync.entry(item.habit.id, entry.day, status: entry.status, note: entry.note)
        }
        added += item.entries.count
      }
      // A day that has an entry keeps it: DO NOTHING, and the change count says which.
      let insertMissing = try db.cachedStatement(
        sql: """
          INSERT INTO habit_entries (habit_id, day, status, note) VALUES (?, ?, ?, ?)
          ON CONFLICT (habit_id, day) DO NOTHING
          """)
      var kept: [UUID: [Day]] = [:]
      for id in additions.entries.keys.sorted(by: { $0.storeText < $1.storeText }) {
        _ = try db.ownedHabit(id, of: user)
        for entry in additions.entries[id] ?? [] {
          try insertMissing.execute(
            arguments: [id.storeText, entry.day.description, entry.status.rawValue, entry.note])
          if db.changesCount == 1 {
            added += 1
            try sync.entry(id, entry.day, status: entry.status, note: entry.note)
          } else {
            kept[id, default: []].append(entry.day)
          }
        }
      }
      return HistoryAdded(
        habitsCreated: additions.newHabits.count, entriesAdded: added, daysKept: kept.mapValues { $0.sorted() })
    }
  }
}
