import Foundation
import TallyCore
import TallyPostgres
import TallySQLite
import TallyStore
import TallySync

/// An open database, the user a command acts for, and the moment it acts at.
struct Session {
  /// The file behind the store, for `backup`; commands otherwise talk to ``store``.
  let database: AppDatabase
  let store: any SyncingStore
  let user: User
  let now: Date
  let context: CommandContext

  var calendar: DayCalendar {
    get throws { try user.settings.dayCalendar() }
  }

  /// `day(containing: now)` in the user's calendar (SPEC 1).
  var today: Day {
    get throws { try calendar.day(containing: now) }
  }

  var output: TextStream { context.standardOutput }

  var databasePath: String { database.path ?? "memory" }
}

/// Opens the database and finds the user: the pieces every command starts from.
struct SessionOpener {
  let options: GlobalOptions
  let context: CommandContext

  /// The database, the user (created on first use) and `now`.
  func open() async throws -> Session {
    let now = try now()
    let (database, store) = try openStore(now: now)
    let user = try await resolveUser(in: store, database: database)
    return Session(database: database, store: store, user: user, now: now, context: context)
  }

  /// A PostgreSQL URL is refused rather than taken as a file name: it would make a SQLite
  /// file in a folder named `postgres:`. The URL is not echoed: it may hold a password.
  func path() throws -> String {
    let path = try options.db ?? DatabaseLocation.defaultPath(environment: context.environment)
    guard !PostgresLocation.isURL(path) else {
      throw CommandFailure(
        "The \(options.db == nil ? "TALLY_DB" : "--db") must name a SQLite file, not a PostgreSQL URL: "
          + "`tally serve --database URL` serves PostgreSQL, and `tally copy-to-postgres URL` copies a file into it.",
        exitCode: CommandFailure.usage)
    }
    return path
  }

  /// The store stamps its changes for sync at `now` (`--now`, `TALLY_NOW` or the clock).
  func openStore(now: Date? = nil) throws -> (AppDatabase, any SyncingStore) {
    let database = try AppDatabase.open(at: try path(), adoptingEmptyFile: options.adoptEmptyDb)
    context.openDatabases.keep(database)
    let now = try now ?? self.now()
    return (database, SQLiteStore(database, clock: { now }))
  }

  /// `--now`, else `TALLY_NOW`, else the clock.
  func now() throws -> Date {
    if let text = options.now {
      guard let date = InstantFormat.date(text) else {
        throw CommandFailure(Clock.badInstant(text, source: "--now"), exitCode: CommandFailure.usage)
      }
      return date
    }
    if let text = context.environment["TALLY_NOW"], !text.isEmpty {
      guard let date = InstantFormat.date(text) else {
        throw CommandFailure(Clock.badInstant(text, source: "TALLY_NOW"), exitCode: CommandFailure.usage)
      }
      return date
    }
    return context.clock()
  }

  /// `--user NAME` names an existing user; without it the database's one user is used. A
  /// database with no users yet gets one on first use (named by `--user`, else `$USER`, else
  /// `me`), with settings from the environment and the default prices.
  func resolveUser(in store: any Store, database: AppDatabase) async throws -> User {
    let users = try await store.users()
    if let name = options.user?.trimmingCharacters(in: .whitespacesAndNewlines) {
      if let user = users.first(where: { $0.name == name }) { return user }
      if users.isEmpty { return try await createFirstUser(named: name, in: store) }
      throw CommandFailure(
        "There is no user named '\(name)' in \(database.path ?? "the database"); "
          + "its users are \(Sentence.list(users.map { "'\($0.name)'" })).")
    }
    switch users.count {
    case 0:
      return try await createFirstUser(named: defaultUserName(), in: store)
    case 1:
      return users[0]
    default:
      throw CommandFailure(
        "The database \(database.path ?? "") has \(users.count) users "
          + "(\(Sentence.list(users.map { "'\($0.name)'" }))): choose one with --user.",
        exitCode: CommandFailure.usage)
    }
  }

  func createFirstUser(named name: String, in store: any Store) async throws -> User {
    let user = try User(id: UUID(), name: name, settings: defaultSettings())
    do {
      let created = try await store.createUser(user)
      try await store.seedPrices(PriceTable.defaults, for: created.id)
      return created
    } catch StoreError.conflict {
      // Another process made the user between our look and our write: use theirs.
      return try await store.user(named: name)
    }
  }

  func defaultUserName() -> String {
    if let name = context.environment["USER"]?.trimmingCharacters(in: .whitespacesAndNewlines),
      User.nameLengths.contains(name.count)
    {
      return name
    }
    return "me"
  }

  /// The zone from `TZ` (an IANA name) or the machine; the locale from `LC_ALL`, `LC_TIME` or
  /// `LANG` when Foundation knows it, else en_US; the week starts where the locale starts it.
  func defaultSettings() -> UserSettings {
    let environment = context.environment
    var zone = context.systemTimeZone
    if var tz = environment["TZ"], !tz.isEmpty {
      if tz.hasPrefix(":") { tz.removeFirst() }
      if TimeZone(identifier: tz) != nil { zone = tz }
    }
    if TimeZone(identifier: zone) == nil { zone = "UTC" }
    var locale = "en_US"
    for name in ["LC_ALL", "LC_TIME", "LANG"] {
      guard let value = environment[name], !value.isEmpty else { continue }
      let identifier = String(value.prefix { $0 != "." && $0 != "@" })
      if Locale.availableIdentifiers.contains(identifier), identifier.contains("_") {
        locale = identifier
      }
      break
    }
    return (try? UserSettings.newAccount(timeZone: zone, locale: locale).validated()) ?? UserSettings(timeZone: "UTC")
  }
}
