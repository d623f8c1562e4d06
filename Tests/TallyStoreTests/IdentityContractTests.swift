import Foundation
import TallyCore
import TallyStore
import Testing

private let bcrypt = "$2b$04$" + String(repeating: "c", count: 53)
private let issuer = "https://id.example.org/realms/home"
private let invitedA = String(repeating: "a", count: 64)
private let invitedB = String(repeating: "b", count: 64)

@Suite struct IdentityContractTests {
  let now = instant("2026-03-08T12:00:00Z")

  func member(_ name: String) throws -> (User, PasswordCredential) {
    let user = try User(id: UUID(), name: name, settings: berlin)
    return (user, try PasswordCredential(userID: user.id, passwordHash: bcrypt, role: .member, updatedAt: now))
  }

  func identity(_ subject: String, _ user: UUID = UUID()) throws -> ProviderIdentity {
    try ProviderIdentity(issuer: issuer, subject: subject, userID: user, createdAt: now)
  }

  @Test(arguments: StoreFactory.all)
  func aPersonIsTheirIssuerAndSubject(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let (ada, credential) = try member("ada")
    let made = try await store.createAccount(ada, credential: credential, identity: try identity("sub-1"), invitationHash: nil)
    #expect(made == ada)
    #expect(try await store.user(issuer: issuer, subject: "sub-1") == ada)
    #expect(try await store.credential(for: ada.id) == credential)
    // The same subject at another issuer is someone else.
    #expect(try await store.user(issuer: issuer + "/other", subject: "sub-1") == nil)
    #expect(try await store.identities(for: ada.id).map(\.subject) == ["sub-1"])

    // A second account for the same pair is refused whole: no user, no credential.
    let (bob, bobs) = try member("bob")
    await #expect(throws: StoreError.conflict("this sign-in is already linked to another account")) {
      try await store.createAccount(bob, credential: bobs, identity: try identity("sub-1"), invitationHash: nil)
    }
    #expect(try await store.users().map(\.name) == ["ada"])
  }

  @Test(arguments: StoreFactory.all)
  func linkingIsOncePerPair(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store, "ada")
    let bob = try await makeUser(store, "bob")
    try await store.linkIdentity(try identity("sub-1", ada.id))
    try await store.linkIdentity(try identity("sub-1", ada.id))
    #expect(try await store.identities(for: ada.id).count == 1)
    await #expect(throws: StoreError.conflict("this sign-in is already linked to another account")) {
      try await store.linkIdentity(try identity("sub-1", bob.id))
    }
    let nobody = UUID()
    await #expect(throws: StoreError.notFound(.user(nobody))) {
      try await store.linkIdentity(try identity("sub-2", nobody))
    }
    #expect(try await store.user(issuer: issuer, subject: "sub-1") == ada)
  }

  @Test(arguments: StoreFactory.all)
  func anInvitationIsTakenOnceAndOnlyBeforeItExpires(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let owner = try await makeUser(store, "owner")
    try await store.createInvitation(
      try Invitation(tokenHash: invitedA, createdBy: owner.id, createdAt: now, expiresAt: now + 3600))
    try await store.createInvitation(
      try Invitation(tokenHash: invitedB, createdBy: owner.id, createdAt: now - 7200, expiresAt: now - 3600))

    let (ada, adas) = try member("ada")
    try await store.createAccount(ada, credential: adas, identity: try identity("sub-a"), invitationHash: invitedA)
    #expect(try await store.user(issuer: issuer, subject: "sub-a") == ada)

    let (bob, bobs) = try member("bob")
    for hash in [invitedA, invitedB, String(repeating: "c", count: 64)] {
      await #expect(throws: StoreError.notFound(.invitation)) {
        try await store.createAccount(bob, credential: bobs, identity: try identity("sub-b"), invitationHash: hash)
      }
    }
    #expect(try await store.users().map(\.name) == ["ada", "owner"])
    #expect(try await store.user(issuer: issuer, subject: "sub-b") == nil)
  }

  @Test(arguments: StoreFactory.all)
  func aTakenNameLeavesTheInvitationForAnotherTry(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let owner = try await makeUser(store, "ada")
    try await store.createInvitation(
      try Invitation(tokenHash: invitedA, createdBy: owner.id, createdAt: now, expiresAt: now + 3600))
    let (taken, credential) = try member("ada")
    await #expect(throws: StoreError.conflict("a user named 'ada' already exists")) {
      try await store.createAccount(taken, credential: credential, identity: try identity("sub-a"), invitationHash: invitedA)
    }
    let (ada2, credential2) = try member("ada 2")
    try await store.createAccount(ada2, credential: credential2, identity: try identity("sub-a"), invitationHash: invitedA)
    #expect(try await store.user(issuer: issuer, subject: "sub-a") == ada2)
  }

  @Test func identitiesAndInvitationsRefuseWhatNoProviderSends() {
    #expect(throws: ValidationError.self) { try ProviderIdentity(issuer: issuer, subject: "", userID: UUID(), createdAt: now) }
    #expect(throws: ValidationError.self) {
      try ProviderIdentity(issuer: issuer, subject: String(repeating: "s", count: 256), userID: UUID(), createdAt: now)
    }
    #expect(throws: ValidationError.self) { try Invitation(tokenHash: "ABC", createdBy: UUID(), createdAt: now, expiresAt: now + 1) }
    #expect(throws: ValidationError.self) { try Invitation(tokenHash: invitedA, createdBy: UUID(), createdAt: now, expiresAt: now) }
  }

  @Test(arguments: StoreFactory.all)
  func aSignInInProgressIsTakenOnceBeforeItsTimeIsUp(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let key = String(repeating: "d", count: 64)
    try await store.keepPendingSignIn(key: key, body: "first", at: now, lifetime: 600, capacity: 10)
    #expect(try await store.takePendingSignIn(key: key, at: now + 599, lifetime: 600) == "first")
    #expect(try await store.takePendingSignIn(key: key, at: now + 599, lifetime: 600) == nil, "taken once")

    try await store.keepPendingSignIn(key: key, body: "late", at: now, lifetime: 600, capacity: 10)
    #expect(try await store.takePendingSignIn(key: key, at: now + 600, lifetime: 600) == nil, "too old")
  }

  @Test(arguments: StoreFactory.all)
  func signInsInProgressAreBoundedOldestFirst(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let keys = (0..<5).map { String(repeating: String($0), count: 64) }
    for (index, key) in keys.enumerated() {
      try await store.keepPendingSignIn(key: key, body: "\(index)", at: now + Double(index), lifetime: 600, capacity: 3)
    }
    var kept: [String] = []
    for key in keys {
      if let body = try await store.takePendingSignIn(key: key, at: now + 10, lifetime: 600) { kept.append(body) }
    }
    #expect(kept == ["2", "3", "4"])
  }
}
