import Foundation
import TallyCore
import TallySQLite
import TallyStore
import Testing

@Suite struct SnapshotContractTests {
  /// Fills `user` with something of every kind through the ordinary methods and returns what
  /// their snapshot must be: written out of order, so the snapshot's orders are the store's.
  func fill(_ store: any Store, _ user: User) async throws -> UserSnapshot {
    let run = try Habit(
      id: UUID(), name: "Run", color: HexColor(parsing: "#80FF0000"), createdDay: day("2026-02-01"),
      frequency: .weekly(targetPerWeek: 3), reminder: .single(WallTime(hour: 7)), sortOrder: 2)
    let read = makeHabit("Read", sortOrder: 1)
    let old = makeHabit("Old", sortOrder: 5, archived: true)
    for habit in [run, read, old] {
      _ = try await store.createHabit(habit, for: user.id)
    }
    try await store.setDays(days("2026-03-02", "2026-03-01"), of: read.id, to: .done, note: nil, for: user.id)
    try await store.setDay(day("2026-03-03"), of: read.id, to: .skipped, note: " ill ", for: user.id)
    try await store.setDay(day("2026-03-04"), of: run.id, to: .done, for: user.id)

    let journal = [
      try JournalEntry(day: day("2026-03-01"), text: "first"),
      try JournalEntry(day: day("2026-03-02"), text: "second"),
    ]
    for entry in journal.reversed() {
      try await store.setJournalEntry(entry, for: user.id)
    }
    let same = instant("2026-03-02T09:00:00.123Z")
    let question = try ChatMessage(id: UUID(), day: day("2026-03-02"), role: .user, text: "why?", sentAt: same)
    let answer = try ChatMessage(id: UUID(), day: day("2026-03-02"), role: .assistant, text: "because", sentAt: same)
    let earlier = try ChatMessage(
      id: UUID(), day: day("2026-03-01"), role: .user, text: "hello", sentAt: instant("2026-03-01T20:00:00Z"))
    for message in [question, answer, earlier] {
      try await store.addChatMessage(message, for: user.id)
    }

    let zebra = show("Zebra", providers: ["US": [provider(15, "Hulu"), provider(8, "Netflix")]])
    let andor = show("Andor", status: .paused)
    try await store.saveShow(zebra, for: user.id)
    try await store.saveShow(andor, for: user.id)
    let episodes = [
      episode(andor, 1, 1, "2026-01-01"), episode(zebra, 1, 1, "2026-03-01"), episode(zebra, 1, 2, "2026-03-08"),
    ]
    try await store.saveEpisodes(episodes.reversed(), for: user.id)
    let prices = [price("AU", 8, "18.99", "AUD"), price("US", 8, "17.99", "USD"), price("US", 15, "9.99", "USD")]
    for price in prices.reversed() {
      try await store.setPrice(price, for: user.id)
    }
    return UserSnapshot(
      settings: user.settings,
      habits: [
        .init(habit: read, entries: [
          HabitEntry(day: day("2026-03-01"), status: .done), HabitEntry(day: day("2026-03-02"), status: .done),
          HabitEntry(day: day("2026-03-03"), status: .skipped, note: "ill"),
        ]),
        .init(habit: run, entries: [HabitEntry(day: day("2026-03-04"), status: .done)]),
        .init(habit: old, entries: []),
      ],
      journal: journal,
      chat: [earlier, question, answer],
      shows: [andor, zebra],
      episodes: episodes,
      prices: prices)
  }

  /// Every user and everything they own: equal before and after means nothing changed.
  func everything(_ store: any Store) async throws -> [String] {
    var lines: [String] = []
    for user in try await store.users() {
      lines.append("\(user)")
      lines.append("\(try await store.snapshot(of: user.id))")
    }
    return lines
  }

  /// A snapshot with fresh ids, made in a scratch store.
  func freshSnapshot() async throws -> UserSnapshot {
    let scratch = SQLiteStore(try AppDatabase.inMemory())
    return try await fill(scratch, try await makeUser(scratch, "scratch"))
  }

  @Test(arguments: StoreFactory.all)
  func aSnapshotHoldsEverythingOfOneUserInTheStoresOrders(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store, "ada")
    let bob = try await makeUser(store, "bob")
    let expected = try await fill(store, ada)
    _ = try await fill(store, bob)
    #expect(try await store.snapshot(of: ada.id) == expected)
    let nobody = UUID()
    await #expect(throws: StoreError.notFound(.user(nobody))) { try await store.snapshot(of: nobody) }
  }

  @Test(arguments: StoreFactory.all)
  func restoringIntoANewUserGivesBackTheSnapshotWithItsIds(_ factory: StoreFactory) async throws {
    var snapshot = try await freshSnapshot()
    let store = try await factory.make()
    let id = UUID()
    let user = try await store.restore(snapshot, into: .newUser(id: id, name: "  ada "))
    #expect(user == (try User(id: id, name: "ada", settings: berlin)))
    #expect(try await store.users() == [user])
    #expect(try await store.snapshot(of: id) == snapshot)
    let read = snapshot.habits[0].habit
    #expect(try await store.habit(id: read.id, for: id) == read)
    #expect(try await store.show(id: snapshot.shows[1].id, for: id) == snapshot.shows[1])
    // Of messages sent at the same instant, the question comes before its answer.
    #expect(try await store.chatMessages(on: day("2026-03-02"), for: id) == Array(snapshot.chat[1...]))

    // Notes are stored as setDays stores them: trimmed, and blank ones removed.
    snapshot.habits[0].entries[0].note = "  rain  "
    snapshot.habits[0].entries[1].note = "   "
    for index in snapshot.habits.indices { snapshot.habits[index].habit.id = UUID() }
    snapshot.chat = []
    snapshot.shows = []
    snapshot.episodes = []
    let other = try await store.restore(snapshot, into: .newUser(id: UUID(), name: "bob"))
    #expect(try await store.entries(of: snapshot.habits[0].habit.id, for: other.id).map(\.note) == ["rain", nil, "ill"])
  }

  @Test(arguments: StoreFactory.all)
  func restoringIntoAnEmptyUserReplacesItsSettingsAndPrices(_ factory: StoreFactory) async throws {
    let snapshot = try await freshSnapshot()
    let store = try await factory.make()
    let bob = try await store.createUser(User(id: UUID(), name: "bob", settings: UserSettings(timeZone: "UTC")))
    try await store.setPrice(price("DE", 8, "13.99", "EUR"), for: bob.id)
    let user = try await store.restore(snapshot, into: .emptyUser(bob.id))
    #expect(user == (try User(id: bob.id, name: "bob", settings: berlin)))
    #expect(try await store.user(id: bob.id) == user)
    // The DE price is gone: the snapshot's prices are the user's prices.
    #expect(try await store.snapshot(of: bob.id) == snapshot)
  }

  @Test(arguments: StoreFactory.all)
  func aTakenUserOrOneWithDataIsRefusedAndNothingChanges(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store, "ada")
    _ = try await fill(store, ada)
    // Each of these users holds one kind of data, which is enough to refuse them.
    let journal = try await makeUser(store, "journal")
    try await store.setJournalEntry(JournalEntry(day: day("2026-03-01"), text: "x"), for: journal.id)
    let chat = try await makeUser(store, "chat")
    try await store.addChatMessage(
      ChatMessage(id: UUID(), day: day("2026-03-01"), role: .assistant, text: "x", sentAt: instant("2026-03-01T10:00:00Z")),
      for: chat.id)
    let shows = try await makeUser(store, "shows")
    try await store.saveShow(show("Andor"), for: shows.id)
    let archived = try await makeUser(store, "archived")
    _ = try await addHabit(store, for: archived, "Old", archived: true)
    let snapshot = try await freshSnapshot()
    let before = try await everything(store)

    await #expect(throws: StoreError.conflict("a user with id \(ada.id.storeText) already exists")) {
      try await store.restore(snapshot, into: .newUser(id: ada.id, name: "carol"))
    }
    await #expect(throws: StoreError.conflict("a user named 'ada' already exists")) {
      try await store.restore(snapshot, into: .newUser(id: UUID(), name: " ada"))
    }
    await #expect(
      throws: StoreError.invalid(
        ValidationError(field: "user name", rule: "must be 1 to 64 characters after trimming spaces (this one has 0)"))
    ) {
      try await store.restore(snapshot, into: .newUser(id: UUID(), name: "  "))
    }
    let nobody = UUID()
    await #expect(throws: StoreError.notFound(.user(nobody))) {
      try await store.restore(snapshot, into: .emptyUser(nobody))
    }
    for user in [ada, journal, chat, shows, archived] {
      await #expect(throws: StoreError.userHasData(user)) {
        try await store.restore(snapshot, into: .emptyUser(user.id))
      }
    }
    #expect(try await everything(store) == before)
  }

  @Test(arguments: StoreFactory.all)
  func idsAnotherUserHoldsAreReplacedAndTheFilesLinksKept(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store, "ada")
    let adas = try await fill(store, ada)
    let bob = try await store.createUser(User(id: UUID(), name: "bob", settings: UserSettings(timeZone: "UTC")))
    let adaBefore = try await store.snapshot(of: ada.id)

    // ada's own export, restored into an empty bob and into a new carol.
    for target in [RestoreTarget.emptyUser(bob.id), .newUser(id: UUID(), name: "carol")] {
      let user = try await store.restore(adas, into: target)
      let theirs = try await store.snapshot(of: user.id)
      #expect(Set(theirs.habits.map(\.habit.id)).isDisjoint(with: adas.habits.map(\.habit.id)))
      #expect(Set(theirs.chat.map(\.id)).isDisjoint(with: adas.chat.map(\.id)))
      #expect(Set(theirs.shows.map(\.id)).isDisjoint(with: adas.shows.map(\.id)))
      // Everything else is the file's, and each episode is still under its show.
      #expect(theirs.habits.map(\.habit.name) == adas.habits.map(\.habit.name))
      #expect(theirs.habits.map(\.entries) == adas.habits.map(\.entries))
      #expect(theirs.chat.map(\.text) == adas.chat.map(\.text))
      #expect(theirs.journal == adas.journal)
      let titleByID = Dictionary(uniqueKeysWithValues: theirs.shows.map { ($0.id, $0.title) })
      let adasTitles = Dictionary(uniqueKeysWithValues: adas.shows.map { ($0.id, $0.title) })
      #expect(theirs.episodes.map { titleByID[$0.showID] } == adas.episodes.map { adasTitles[$0.showID] })
      #expect(theirs.episodes.map(\.title) == adas.episodes.map(\.title))
    }
    #expect(try await store.snapshot(of: ada.id) == adaBefore)
  }

  @Test(arguments: StoreFactory.all)
  func aSnapshotThatBreaksARuleIsRefusedWhole(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let good = try await freshSnapshot()
    let read = good.habits[0].habit
    func broken(_ change: (inout UserSnapshot) -> Void) -> UserSnapshot {
      var snapshot = good
      change(&snapshot)
      return snapshot
    }
    let elsewhere = show("Elsewhere")
    let cases: [(UserSnapshot, StoreError)] = [
      (broken { $0.settings.timeZone = "Mars/Olympus" },
       .invalid(ValidationError(field: "timeZone", rule: "must be an IANA time zone like Europe/Berlin, not 'Mars/Olympus'"))),
      (broken { $0.habits.append($0.habits[0]) }, .conflict("the habit \(read.id.storeText) is listed twice")),
      (broken { $0.habits[0].entries.append($0.habits[0].entries[0]) },
       .conflict("the day 2026-03-01 of the habit 'Read' is listed twice")),
      (broken { $0.habits[1].entries[0].note = String(repeating: "n", count: EntryNote.maxCharacters + 1) },
       .invalid(
         ValidationError(
           field: "note", rule: "must be at most 2000 characters (this one has 2001)", kind: .tooLong,
           values: ["max": "2000", "length": "2001"]))),
      (broken { $0.journal.append($0.journal[1]) }, .conflict("the journal entry of 2026-03-02 is listed twice")),
      (broken { $0.chat.append($0.chat[0]) }, .conflict("the chat message \(good.chat[0].id.storeText) is listed twice")),
      (broken { $0.shows.append($0.shows[0]) }, .conflict("the show \(good.shows[0].id.storeText) is listed twice")),
      (broken { $0.shows.append(show("Twice", providers: ["US": [provider(8, "Netflix"), provider(8, "Netflix")]])) },
       .conflict("the show 'Twice' lists provider 8 twice in US")),
      // Issue 17: a record of the file that is wrong is a 422 naming it, not a 404.
      (broken { $0.episodes.append(episode(elsewhere, 1, 1, "2026-03-01")) },
       .invalid(
         ValidationError(
           field: "episodes[\(good.episodes.count)]",
           rule: "(S1E1) names the show \(elsewhere.id.storeText), which is not among the shows"))),
      (broken { $0.episodes.append($0.episodes[2]) },
       .conflict("episode 2 of season 1 of the show \(good.shows[1].id.storeText) is listed twice")),
      (broken { $0.prices.append(price("US", 8, "1.00", "USD")) },
       .invalid(ValidationError(field: "prices", rule: "must price provider 8 in US only once"))),
    ]
    for (snapshot, error) in cases {
      #expect(throws: error) { try snapshot.checked() }
      await #expect(throws: error) { try await store.restore(snapshot, into: .newUser(id: UUID(), name: "ada")) }
    }
    #expect(try await store.users().isEmpty)
  }
}
