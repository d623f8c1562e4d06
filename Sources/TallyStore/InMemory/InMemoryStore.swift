import Foundation
import TallyCore

/// A ``Store`` in memory: for tests, previews and the server's in-memory configuration.
///
/// Each method checks everything before it changes anything and never suspends in between,
/// so each call is all-or-nothing, like a transaction.
public actor InMemoryStore: Store {
  struct OwnedHabit {
    var owner: UUID
    var habit: Habit
  }

  struct OwnedShow {
    var owner: UUID
    var show: Show
  }

  struct EpisodeKey: Hashable {
    var season: Int
    var number: Int
  }

  struct Delivery: Hashable {
    var habit: UUID
    var sentAt: Date
    /// The sender's record; `recordDelivery` makes one in state `sent`.
    var record: ReminderDelivery
  }

  struct FeedToken: Hashable {
    var hash: String
    var createdAt: Date
  }

  /// Bumped by every change to any of the collections below: the store's revision.
  var writes = 0
  var usersByID: [UUID: User] = [:] { didSet { writes &+= 1 } }
  var habitsByID: [UUID: OwnedHabit] = [:] { didSet { writes &+= 1 } }
  var entriesByHabit: [UUID: [Day: HabitEntry]] = [:] { didSet { writes &+= 1 } }
  var journalByUser: [UUID: [Day: JournalEntry]] = [:] { didSet { writes &+= 1 } }
  /// In the order added, which breaks ties between messages sent at the same instant.
  var messages: [(owner: UUID, message: ChatMessage)] = [] { didSet { writes &+= 1 } }
  var showsByID: [UUID: OwnedShow] = [:] { didSet { writes &+= 1 } }
  var episodesByShow: [UUID: [EpisodeKey: Episode]] = [:] { didSet { writes &+= 1 } }
  var pricesByUser: [UUID: PriceTable] = [:] { didSet { writes &+= 1 } }
  var tokensByID: [UUID: APIToken] = [:] { didSet { writes &+= 1 } }
  var sessionsByID: [UUID: BrowserSession] = [:] { didSet { writes &+= 1 } }
  var deliveriesByUser: [UUID: [String: Delivery]] = [:] { didSet { writes &+= 1 } }
  var credentialsByUser: [UUID: PasswordCredential] = [:] { didSet { writes &+= 1 } }
  var feedTokensByUser: [UUID: FeedToken] = [:] { didSet { writes &+= 1 } }
  var webhooksByUser: [UUID: Webhook] = [:] { didSet { writes &+= 1 } }

  public init() {}

  // MARK: - Checks shared by the methods below

  func requireUser(_ id: UUID) throws(StoreError) {
    guard usersByID[id] != nil else { throw .notFound(.user(id)) }
  }

  func ownedHabit(_ id: UUID, of user: UUID) throws(StoreError) -> Habit {
    guard let owned = habitsByID[id], owned.owner == user else { throw .notFound(.habit(id)) }
    return owned.habit
  }

  func ownedShow(_ id: UUID, of user: UUID) throws(StoreError) -> Show {
    guard let owned = showsByID[id], owned.owner == user else { throw .notFound(.show(id)) }
    return owned.show
  }
}

// MARK: - Users

extension InMemoryStore {
  public func createUser(_ user: User) throws -> User {
    let user = try StoreError.validating { () throws(ValidationError) in
      try User(id: user.id, name: user.name, settings: user.settings)
    }
    try requireNewUser(user)
    usersByID[user.id] = user
    return user
  }

  func requireNewUser(_ user: User) throws(StoreError) {
    guard usersByID[user.id] == nil else {
      throw .conflict("a user with id \(user.id.storeText) already exists")
    }
    guard !usersByID.values.contains(where: { $0.name == user.name }) else {
      throw .conflict("a user named '\(user.name)' already exists")
    }
  }

  public func user(id: UUID) throws -> User {
    guard let user = usersByID[id] else { throw StoreError.notFound(.user(id)) }
    return user
  }

  public func user(named name: String) throws -> User {
    let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
    guard let user = usersByID.values.first(where: { $0.name == trimmed }) else {
      throw StoreError.notFound(.userNamed(trimmed))
    }
    return user
  }

  public func users() -> [User] {
    usersByID.values.sorted(by: StoreOrder.users)
  }

  public func updateSettings(_ settings: UserSettings, for user: UUID) throws -> User {
    let settings = try StoreError.validating { () throws(ValidationError) in try settings.validated() }
    guard var stored = usersByID[user] else { throw StoreError.notFound(.user(user)) }
    stored.settings = settings
    usersByID[user] = stored
    return stored
  }
}

// MARK: - Habits

extension InMemoryStore {
  public func createHabit(_ habit: Habit, for user: UUID) throws -> Habit {
    let habit = try StoreError.validating { () throws(ValidationError) in try habit.validated() }
    try requireUser(user)
    guard habitsByID[habit.id] == nil else {
      throw StoreError.conflict("a habit with id \(habit.id.storeText) already exists")
    }
    habitsByID[habit.id] = OwnedHabit(owner: user, habit: habit)
    return habit
  }

  public func habit(id: UUID, for user: UUID) throws -> Habit {
    try ownedHabit(id, of: user)
  }

  public func habits(for user: UUID, includingArchived: Bool) throws -> [Habit] {
    try requireUser(user)
    return habitsByID.values
      .filter { $0.owner == user && (includingArchived || !$0.habit.archived) }
      .map(\.habit)
      .sorted(by: StoreOrder.habits)
  }

  public func updateHabit(_ habit: Habit, for user: UUID) throws -> Habit {
    let habit = try StoreError.validating { () throws(ValidationError) in try habit.validated() }
    _ = try ownedHabit(habit.id, of: user)
    habitsByID[habit.id]?.habit = habit
    return habit
  }

  public func setArchived(_ archived: Bool, habit id: UUID, for user: UUID) throws -> Habit {
    var habit = try ownedHabit(id, of: user)
    habit.archived = archived
    habitsByID[id]?.habit = habit
    return habit
  }

  public func deleteHabit(id: UUID, for user: UUID) throws {
    _ = try ownedHabit(id, of: user)
    habitsByID[id] = nil
    entriesByHabit[id] = nil
    for (owner, deliveries) in deliveriesByUser {
      deliveriesByUser[owner] = deliveries.filter { $0.value.habit != id }
    }
  }

  public func reorderHabits(_ ids: [UUID], for user: UUID) throws -> [Habit] {
    let current = try habits(for: user, includingArchived: true)
    let order = try HabitReordering.order(current.map(\.id), moving: ids)
    for (position, id) in order.enumerated() {
      habitsByID[id]?.habit.sortOrder = position
    }
    return try habits(for: user, includingArchived: true)
  }
}

// MARK: - Entries

extension InMemoryStore {
  @discardableResult
  public func setDays(
    _ days: [Day], of habit: UUID, to mark: DayMark, note: String?, for user: UUID
  ) throws -> [HabitEntry] {
    // Input is checked before ownership, in every store, so errors come in the same order.
    _ = try StoreError.validating { () throws(ValidationError) in
      try EntryNote.resolve(note, keeping: nil)
    }
    _ = try ownedHabit(habit, of: user)
    var entries = entriesByHabit[habit] ?? [:]
    var result: [HabitEntry] = []
    for day in Set(days).sorted() {
      guard let status = mark.status else {
        entries[day] = nil
        continue
      }
      let note = try StoreError.validating { () throws(ValidationError) in
        try EntryNote.resolve(note, keeping: entries[day]?.note)
      }
      let entry = HabitEntry(day: day, status: status, note: note)
      entries[day] = entry
      result.append(entry)
    }
    entriesByHabit[habit] = entries
    return result
  }

  public func entries(of habit: UUID, in range: ClosedRange<Day>?, for user: UUID) throws
    -> [HabitEntry]
  {
    _ = try ownedHabit(habit, of: user)
    return (entriesByHabit[habit] ?? [:]).values
      .filter { range?.contains($0.day) ?? true }
      .sorted { $0.day < $1.day }
  }

  public func entries(in range: ClosedRange<Day>, for user: UUID) throws -> [UUID: [HabitEntry]] {
    try requireUser(user)
    var result: [UUID: [HabitEntry]] = [:]
    for (id, owned) in habitsByID where owned.owner == user {
      let list = (entriesByHabit[id] ?? [:]).values
        .filter { range.contains($0.day) }
        .sorted { $0.day < $1.day }
      if !list.isEmpty { result[id] = list }
    }
    return result
  }
}

// MARK: - Journal

extension InMemoryStore {
  public func setJournalEntry(_ entry: JournalEntry, for user: UUID) throws {
    try requireUser(user)
    journalByUser[user, default: [:]][entry.day] = entry
  }

  public func clearJournalEntry(on day: Day, for user: UUID) throws {
    try requireUser(user)
    journalByUser[user]?[day] = nil
  }

  public func journalEntry(on day: Day, for user: UUID) throws -> JournalEntry? {
    try requireUser(user)
    return journalByUser[user]?[day]
  }

  public func journalEntries(in range: ClosedRange<Day>, for user: UUID) throws -> [JournalEntry] {
    try requireUser(user)
    return (journalByUser[user] ?? [:]).values
      .filter { range.contains($0.day) }
      .sorted { $0.day < $1.day }
  }

  public func addChatMessage(_ message: ChatMessage, for user: UUID) throws {
    try requireUser(user)
    guard !messages.contains(where: { $0.message.id == message.id }) else {
      throw StoreError.conflict("a chat message with id \(message.id.storeText) already exists")
    }
    var message = message
    message.sentAt = StoredInstant.normalized(message.sentAt)
    messages.append((user, message))
  }

  public func chatMessages(on day: Day, for user: UUID) throws -> [ChatMessage] {
    try chatMessages(in: day...day, for: user)
  }

  public func chatMessages(in range: ClosedRange<Day>, for user: UUID) throws -> [ChatMessage] {
    try requireUser(user)
    let mine = messages.filter { $0.owner == user && range.contains($0.message.day) }.map(\.message)
    // Swift's sort is stable, so equal (day, sentAt) keep the order they were added in.
    return mine.sorted { ($0.day, $0.sentAt) < ($1.day, $1.sentAt) }
  }

  public func journalActivity(in range: ClosedRange<Day>, for user: UUID) throws -> JournalActivity {
    JournalActivity(
      entries: try journalEntries(in: range, for: user),
      messages: try chatMessages(in: range, for: user))
  }
}

// MARK: - Streaming

extension InMemoryStore {
  public func saveShow(_ show: Show, for user: UUID) throws {
    try ShowRules.checkProviders(show)
    try requireUser(user)
    if let owned = showsByID[show.id], owned.owner != user {
      throw StoreError.conflict("a show with id \(show.id.storeText) already exists")
    }
    if let tmdbID = show.tmdbID,
      showsByID.values.contains(where: { $0.owner == user && $0.show.tmdbID == tmdbID && $0.show.id != show.id })
    {
      throw StoreError.conflict("another of your shows has TMDB id \(tmdbID)")
    }
    showsByID[show.id] = OwnedShow(owner: user, show: show)
  }

  public func show(id: UUID, for user: UUID) throws -> Show {
    try ownedShow(id, of: user)
  }

  public func shows(for user: UUID) throws -> [Show] {
    try requireUser(user)
    return showsByID.values.filter { $0.owner == user }.map(\.show).sorted(by: StoreOrder.shows)
  }

  public func deleteShow(id: UUID, for user: UUID) throws {
    _ = try ownedShow(id, of: user)
    showsByID[id] = nil
    episodesByShow[id] = nil
  }

  public func saveEpisodes(_ episodes: [Episode], for user: UUID) throws {
    for episode in episodes {
      _ = try ownedShow(episode.showID, of: user)
    }
    for episode in episodes {
      episodesByShow[episode.showID, default: [:]][
        EpisodeKey(season: episode.season, number: episode.number)] = episode
    }
  }

  public func episodes(of show: UUID, for user: UUID) throws -> [Episode] {
    _ = try ownedShow(show, of: user)
    return (episodesByShow[show] ?? [:]).values.sorted {
      ($0.season, $0.number) < ($1.season, $1.number)
    }
  }

  public func episodes(airingIn range: ClosedRange<Day>, for user: UUID) throws -> [Episode] {
    try requireUser(user)
    return showsByID.values.filter { $0.owner == user }
      .flatMap { (episodesByShow[$0.show.id] ?? [:]).values }
      .filter { range.contains($0.airDay) }
      .sorted(by: StoreOrder.episodes)
  }

  public func setPrice(_ price: Price, for user: UUID) throws {
    try requireUser(user)
    pricesByUser[user, default: PriceTable()].set(price)
  }

  public func removePrice(country: String, providerID: Int, for user: UUID) throws {
    try requireUser(user)
    pricesByUser[user]?.removePrice(country: country, providerID: providerID)
  }

  public func priceTable(for user: UUID) throws -> PriceTable {
    try requireUser(user)
    return pricesByUser[user] ?? PriceTable()
  }
}

// MARK: - Credentials

extension InMemoryStore {
  public func createAPIToken(_ token: APIToken) throws -> APIToken {
    let token = try StoreError.validating { () throws(ValidationError) in
      try APIToken(
        id: token.id, userID: token.userID, tokenHash: token.tokenHash, name: token.name,
        createdAt: token.createdAt, expiresAt: token.expiresAt)
    }
    try requireUser(token.userID)
    guard tokensByID[token.id] == nil else {
      throw StoreError.conflict("an API token with id \(token.id.storeText) already exists")
    }
    guard !tokensByID.values.contains(where: { $0.tokenHash == token.tokenHash }) else {
      throw StoreError.conflict("an API token with this hash already exists")
    }
    tokensByID[token.id] = token
    return token
  }

  public func apiToken(hash: String, at now: Date) -> APIToken? {
    let (hash, now) = (hash.lowercased(), StoredInstant.normalized(now))
    return tokensByID.values.first { $0.tokenHash == hash && $0.isValid(at: now) }
  }

  public func apiTokens(for user: UUID) throws -> [APIToken] {
    try requireUser(user)
    return tokensByID.values.filter { $0.userID == user }.sorted(by: CredentialOrder.tokens)
  }

  public func deleteAPIToken(id: UUID, for user: UUID) throws {
    guard let token = tokensByID[id], token.userID == user else {
      throw StoreError.notFound(.apiToken(id))
    }
    tokensByID[id] = nil
  }

  public func createSession(_ session: BrowserSession) throws -> BrowserSession {
    let session = try StoreError.validating { () throws(ValidationError) in
      try BrowserSession(
        id: session.id, userID: session.userID, tokenHash: session.tokenHash,
        createdAt: session.createdAt, expiresAt: session.expiresAt)
    }
    try requireUser(session.userID)
    guard sessionsByID[session.id] == nil else {
      throw StoreError.conflict("a session with id \(session.id.storeText) already exists")
    }
    guard !sessionsByID.values.contains(where: { $0.tokenHash == session.tokenHash }) else {
      throw StoreError.conflict("a session with this hash already exists")
    }
    sessionsByID[session.id] = session
    return session
  }

  public func session(hash: String, at now: Date) -> BrowserSession? {
    let (hash, now) = (hash.lowercased(), StoredInstant.normalized(now))
    return sessionsByID.values.first { $0.tokenHash == hash && $0.isValid(at: now) }
  }

  public func deleteSession(id: UUID, for user: UUID) throws {
    guard let session = sessionsByID[id], session.userID == user else {
      throw StoreError.notFound(.session(id))
    }
    sessionsByID[id] = nil
  }

  public func deleteSessions(expiredAt now: Date) -> Int {
    let now = StoredInstant.normalized(now)
    let expired = sessionsByID.values.filter { !$0.isValid(at: now) }
    for session in expired { sessionsByID[session.id] = nil }
    return expired.count
  }
}

// MARK: - Reminder deliveries

extension InMemoryStore {
  public func recordDelivery(_ key: ReminderOccurrenceKey, sentAt: Date, for user: UUID) throws
    -> Bool
  {
    _ = try ownedHabit(key.habitID, of: user)
    let text = key.description
    guard deliveriesByUser[user]?[text] == nil else { return false }
    deliveriesByUser[user, default: [:]][text] = Delivery(
      habit: key.habitID, sentAt: StoredInstant.normalized(sentAt),
      record: ReminderDelivery(key: key, state: .sent, dueAt: sentAt, attempts: 1, updatedAt: sentAt))
    return true
  }

  public func claimDelivery(_ delivery: ReminderDelivery, for user: UUID) throws -> Bool {
    _ = try ownedHabit(delivery.key.habitID, of: user)
    let text = delivery.key.description
    guard deliveriesByUser[user]?[text] == nil else { return false }
    deliveriesByUser[user, default: [:]][text] = Delivery(
      habit: delivery.key.habitID, sentAt: delivery.updatedAt, record: delivery)
    return true
  }

  public func updateDelivery(_ delivery: ReminderDelivery, for user: UUID) throws {
    try requireUser(user)
    let text = delivery.key.description
    guard deliveriesByUser[user]?[text] != nil else { throw StoreError.notFound(.reminderDelivery(text)) }
    deliveriesByUser[user]?[text] = Delivery(
      habit: delivery.key.habitID, sentAt: delivery.updatedAt, record: delivery)
  }

  public func deliveryRecord(_ key: ReminderOccurrenceKey, for user: UUID) throws -> ReminderDelivery? {
    try requireUser(user)
    return deliveriesByUser[user]?[key.description]?.record
  }

  public func deliveries(in state: ReminderDelivery.State, for user: UUID) throws -> [ReminderDelivery] {
    try requireUser(user)
    return (deliveriesByUser[user] ?? [:]).values.map(\.record).filter { $0.state == state }
      .sorted { ($0.dueAt, $0.key.description) < ($1.dueAt, $1.key.description) }
  }

  public func delivery(_ key: ReminderOccurrenceKey, for user: UUID) throws -> Date? {
    try requireUser(user)
    return deliveriesByUser[user]?[key.description]?.sentAt
  }

  public func deleteDeliveries(sentBefore instant: Date, for user: UUID) throws -> Int {
    try requireUser(user)
    let cutoff = StoredInstant.normalized(instant)
    let all = deliveriesByUser[user] ?? [:]
    let kept = all.filter { $0.value.sentAt >= cutoff }
    deliveriesByUser[user] = kept
    return all.count - kept.count
  }
}

// MARK: - Snapshots

extension InMemoryStore {
  public func snapshot(of user: UUID) throws -> UserSnapshot {
    let settings = try self.user(id: user).settings
    let shows = try shows(for: user)
    return UserSnapshot(
      settings: settings,
      habits: try habits(for: user, includingArchived: true).map { habit in
        UserSnapshot.HabitWithEntries(habit: habit, entries: try entries(of: habit.id, in: nil, for: user))
      },
      journal: try journalEntries(in: Day.allTime, for: user),
      chat: try chatMessages(in: Day.allTime, for: user),
      shows: shows,
      episodes: try shows.flatMap { try episodes(of: $0.id, for: user) },
      prices: try priceTable(for: user).prices)
  }

  @discardableResult
  public func restore(_ snapshot: UserSnapshot, into target: RestoreTarget) throws -> User {
    let snapshot = try snapshot.checked()
    let prices = try StoreError.validating { () throws(ValidationError) in
      try PriceTable(snapshot.prices)
    }
    // Every check comes before the first change, with no suspension between them, so a
    // refused restore changes nothing. The checks come in the order SQLiteStore meets them.
    var user: User
    switch target {
    case .newUser(let id, let name):
      user = try StoreError.validating { () throws(ValidationError) in
        try User(id: id, name: name, settings: snapshot.settings)
      }
      try requireNewUser(user)
    case .emptyUser(let id):
      user = try self.user(id: id)
      let holdsData =
        habitsByID.values.contains { $0.owner == id } || !(journalByUser[id] ?? [:]).isEmpty
        || messages.contains { $0.owner == id } || showsByID.values.contains { $0.owner == id }
      guard !holdsData else { throw StoreError.userHasData(user) }
      user.settings = snapshot.settings
    }
    let messageIDs = Set(messages.map(\.message.id))
    let fresh = try snapshot.withFreshIDs { kind, id in
      switch kind {
      case .habit: return habitsByID[id] != nil
      case .chatMessage: return messageIDs.contains(id)
      case .show: return showsByID[id] != nil
      }
    }

    usersByID[user.id] = user
    for item in fresh.habits {
      habitsByID[item.habit.id] = OwnedHabit(owner: user.id, habit: item.habit)
      entriesByHabit[item.habit.id] = Dictionary(uniqueKeysWithValues: item.entries.map { ($0.day, $0) })
    }
    journalByUser[user.id] = Dictionary(uniqueKeysWithValues: fresh.journal.map { ($0.day, $0) })
    messages += fresh.chat.map { (user.id, $0) }
    for show in fresh.shows {
      showsByID[show.id] = OwnedShow(owner: user.id, show: show)
    }
    for episode in fresh.episodes {
      episodesByShow[episode.showID, default: [:]][
        EpisodeKey(season: episode.season, number: episode.number)] = episode
    }
    pricesByUser[user.id] = prices
    return user
  }
}

// MARK: - Revision

extension InMemoryStore {
  public func revision() -> StoreRevision {
    StoreRevision(writes: writes)
  }
}

// MARK: - History

extension InMemoryStore {
  @discardableResult
  public func addHistory(_ additions: HistoryAdditions, for user: UUID) throws -> HistoryAdded {
    let additions = try additions.checked()
    // Every check before the first change, as in restore, so a refusal changes nothing.
    try requireUser(user)
    let existing = try habits(for: user, includingArchived: true)
    for item in additions.newHabits {
      guard habitsByID[item.habit.id] == nil else {
        throw StoreError.conflict("a habit with id \(item.habit.id.storeText) already exists")
      }
      try HabitRules.checkNameFree(item.habit.name, among: existing)
    }
    for id in additions.entries.keys.sorted(by: { $0.storeText < $1.storeText }) {
      _ = try ownedHabit(id, of: user)
    }

    for item in additions.newHabits {
      habitsByID[item.habit.id] = OwnedHabit(owner: user, habit: item.habit)
      entriesByHabit[item.habit.id] = Dictionary(uniqueKeysWithValues: item.entries.map { ($0.day, $0) })
    }
    var added = additions.newHabits.reduce(0) { $0 + $1.entries.count }
    var kept: [UUID: [Day]] = [:]
    for (id, entries) in additions.entries {
      var stored = entriesByHabit[id] ?? [:]
      for entry in entries {
        if stored[entry.day] == nil {
          stored[entry.day] = entry
          added += 1
        } else {
          kept[id, default: []].append(entry.day)
        }
      }
      entriesByHabit[id] = stored
    }
    return HistoryAdded(
      habitsCreated: additions.newHabits.count, entriesAdded: added, daysKept: kept.mapValues { $0.sorted() })
  }
}
