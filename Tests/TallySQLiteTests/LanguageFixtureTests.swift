import Foundation
import TallyCore
import TallyLocalization
import TallyStore
import Testing

@testable import TallySQLite

/// v17: the language an account speaks (issue 56).
@Suite struct LanguageFixtureTests {
  @Test func aV17DatabaseOpensWithItsAccountsLanguages() async throws {
    let database = try AppDatabase.open(at: try LaterFixtureTests.fixtures.copyOfFixture("v17"))
    let store = SQLiteStore(database)
    try await FixtureV1.expectContents(of: store, others: [FixtureV12.eve, FixtureV15.flo, FixtureV16.gus, FixtureV17.ida])
    #expect(try await store.user(id: FixtureV17.ida.id).settings.language == .german)
  }

  /// Every account a v16 file holds speaks as its browsers ask after the upgrade.
  @Test func accountsFromBeforeFollowTheirBrowsers() async throws {
    let database = try AppDatabase.open(at: try LaterFixtureTests.fixtures.copyOfFixture("v16"))
    let users = try await SQLiteStore(database).users()
    #expect(users.count == 5)
    #expect(users.allSatisfy { $0.settings.language == nil })
  }
}

/// What the v17 fixture adds: ida, whose pages speak German whatever her browser asks.
enum FixtureV17 {
  static let ida = try! User(
    id: UUID(uuidString: "0f000000-0000-4000-8000-000000000017")!, name: "ida",
    settings: UserSettings(timeZone: "Europe/Berlin", firstWeekday: .monday, locale: "de_DE", language: .german))

  static func write(_ store: SQLiteStore) async throws {
    _ = try await store.createUser(ida)
  }
}
