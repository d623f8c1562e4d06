import Foundation
import GRDB
import TallyCore
import TallyStore
import Testing

@testable import TallySQLite

/// v16: people who sign in through an OpenID Connect provider, invitations, sign-ins in progress.
@Suite struct IdentitiesFixtureTests {
  @Test func aV16DatabaseOpensWithItsIdentityAndInvitation() async throws {
    let database = try AppDatabase.open(at: try LaterFixtureTests.fixtures.copyOfFixture("v16"))
    let store = SQLiteStore(database)
    try await FixtureV1.expectContents(of: store, others: [FixtureV12.eve, FixtureV15.flo, FixtureV16.gus])
    #expect(try await store.user(issuer: FixtureV16.identity.issuer, subject: FixtureV16.identity.subject) == FixtureV16.gus)
    #expect(try await store.identities(for: FixtureV16.gus.id) == [FixtureV16.identity])
    // The invitation the file holds still lets one person in.
    let hal = try User(id: UUID(), name: "hal", settings: UserSettings(timeZone: "UTC"))
    let credential = try PasswordCredential(userID: hal.id, passwordHash: FixtureV16.hash, role: .member, updatedAt: FixtureV16.at)
    let identity = try ProviderIdentity(issuer: FixtureV16.identity.issuer, subject: "hal-sub", userID: hal.id, createdAt: FixtureV16.at)
    _ = try await store.createAccount(hal, credential: credential, identity: identity, invitationHash: FixtureV16.invitation.tokenHash)
    #expect(try await store.user(issuer: identity.issuer, subject: "hal-sub") == hal)
  }
}

/// What the v16 fixture adds: gus, who signs in through a provider, and an invitation of his.
enum FixtureV16 {
  static let at = Date(timeIntervalSince1970: 1_796_500_000)
  static let hash = "$2b$04$" + String(repeating: "g", count: 53)
  static let gus = try! User(
    id: UUID(uuidString: "0f000000-0000-4000-8000-000000000016")!, name: "gus",
    settings: UserSettings(timeZone: "Asia/Kolkata"))
  static let identity = try! ProviderIdentity(
    issuer: "https://id.example.org/realms/home", subject: "9f1c-gus", userID: gus.id, createdAt: at)
  static let invitation = try! Invitation(
    tokenHash: String(repeating: "16", count: 32), createdBy: gus.id, createdAt: at, expiresAt: at + 100 * 365 * 86_400)

  static func write(_ store: SQLiteStore) async throws {
    let credential = try PasswordCredential(userID: gus.id, passwordHash: hash, role: .member, updatedAt: at)
    _ = try await store.createAccount(gus, credential: credential, identity: identity, invitationHash: nil)
    try await store.createInvitation(invitation)
  }
}
