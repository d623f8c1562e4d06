import Foundation
import PostgresNIO
import TallyCore
import TallyLocalization
import TallyStore
import TallySync

// MARK: - Users

extension PostgresStore {
  public func createUser(_ user: User) async throws -> User {
    let user = try User.checked(user)
    return try await write { connection in
      try await connection.insertUser(user)
      return user
    }
  }

  /// Every request asks, after its token or session: kept in ``SignInCache``.
  public func user(id: UUID) async throws -> User {
    try await database.signIns.value(.user(id), orRead: { try await read { connection in try await connection.user(id) } })
  }

  public func user(named name: String) async throws -> User {
    let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
    return try await read { connection in
      guard let row = try await connection.rows("SELECT * FROM users WHERE name = \(name)").first else {
        throw StoreError.notFound(.userNamed(name))
      }
      return try PostgresRows.user(row)
    }
  }

  public func users() async throws -> [User] {
    try await read { connection in
      try await connection.rows("SELECT * FROM users").map(PostgresRows.user).sorted(by: StoreOrder.users)
    }
  }

  public func updateSettings(_ settings: UserSettings, for user: UUID) async throws -> User {
    let settings = try StoreError.validating { () throws(ValidationError) in try settings.validated() }
    return try await write(recordingFor: user) { connection, sync in
      try await connection.saveSettings(settings, of: user)
      try await sync.record(.settings(settings))
      return try await connection.user(user)
    }
  }
}

extension PostgresConnection {
  func user(_ id: UUID) async throws -> User {
    guard let row = try await rows("SELECT * FROM users WHERE id = \(id)").first else {
      throw StoreError.notFound(.user(id))
    }
    return try PostgresRows.user(row)
  }

  func saveSettings(_ settings: UserSettings, of user: UUID) async throws {
    // Announced at once to this instance; migration v5's trigger tells the others.
    PendingChanges.current?.recordSignInChange()
    try await run(
      """
      UPDATE users SET time_zone = \(settings.timeZone), day_switch_hour = \(settings.daySwitchHour),
        first_weekday = \(settings.firstWeekday.name), locale = \(settings.locale),
        show_date_picker_grid = \(settings.showDatePickerGrid), show_grid_dates = \(settings.showGridDates),
        language = \(settings.language?.code)
      WHERE id = \(user)
      """)
  }

  /// Inserts a checked user, naming the id or the name that is taken.
  func insertUser(_ user: User) async throws {
    guard try await !exists("SELECT EXISTS (SELECT 1 FROM users WHERE id = \(user.id))") else {
      throw StoreError.conflict("a user with id \(user.id.storeText) already exists")
    }
    guard try await !exists("SELECT EXISTS (SELECT 1 FROM users WHERE name = \(user.name))") else {
      throw StoreError.conflict("a user named '\(user.name)' already exists")
    }
    let settings = user.settings
    do {
      try await run(
        """
        INSERT INTO users (id, name, time_zone, day_switch_hour, first_weekday, locale,
          show_date_picker_grid, show_grid_dates, language)
        VALUES (\(user.id), \(user.name), \(settings.timeZone), \(settings.daySwitchHour),
          \(settings.firstWeekday.name), \(settings.locale), \(settings.showDatePickerGrid), \(settings.showGridDates),
          \(settings.language?.code))
        """)
    } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
      // Another instance took the name or id between the checks and the insert.
      let nameTaken = error.serverInfo?[.constraintName] == "users_name_key"
      throw StoreError.conflict(
        nameTaken ? "a user named '\(user.name)' already exists" : "a user with id \(user.id.storeText) already exists")
    }
    // A new user's settings are where they start, not an edit: any real change wins.
    try await PostgresSyncRecorder(genesisIn: self, user: user.id).record(.settings(user.settings))
  }
}
