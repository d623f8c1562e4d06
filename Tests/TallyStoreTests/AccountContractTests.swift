import Foundation
import TallyCore
import TallyStore
import Testing

/// A syntactically real bcrypt hash; the store never checks passwords, only keeps hashes.
private let bcryptA = "$2b$04$" + String(repeating: "a", count: 53)
private let bcryptB = "$2b$04$" + String(repeating: "b", count: 53)

@Suite struct AccountContractTests {
  @Test(arguments: StoreFactory.all)
  func anAccountIsAUserAndACredentialMadeTogether(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let now = instant("2026-03-08T12:00:00Z")
    #expect(try await store.ownerID() == nil)
    let ada = try User(id: UUID(), name: "ada", settings: berlin)
    let credential = try PasswordCredential(userID: ada.id, passwordHash: bcryptA, role: .owner, updatedAt: now)
    #expect(try await store.createAccount(ada, credential: credential) == ada)
    #expect(try await store.credential(for: ada.id) == credential)
    #expect(try await store.ownerID() == ada.id)
    #expect(try await store.user(named: "ada") == ada)

    // A taken name makes neither the user nor the credential.
    let copy = try User(id: UUID(), name: "ada", settings: berlin)
    await #expect(throws: StoreError.conflict("a user named 'ada' already exists")) {
      try await store.createAccount(
        copy, credential: PasswordCredential(userID: copy.id, passwordHash: bcryptB, role: .member, updatedAt: now))
    }
    #expect(try await store.credential(for: copy.id) == nil)
    #expect(try await store.users() == [ada])
  }

  @Test(arguments: StoreFactory.all)
  func aStoreHasOneOwnerAtMost(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let now = instant("2026-03-08T12:00:00Z")
    let ada = try await makeUser(store, "ada")
    let bob = try await makeUser(store, "bob")
    try await store.setCredential(
      PasswordCredential(userID: ada.id, passwordHash: bcryptA, role: .owner, updatedAt: now))
    await #expect(throws: StoreError.conflict("this server already has an owner")) {
      try await store.setCredential(
        PasswordCredential(userID: bob.id, passwordHash: bcryptB, role: .owner, updatedAt: now))
    }
    let cyd = try User(id: UUID(), name: "cyd", settings: berlin)
    await #expect(throws: StoreError.conflict("this server already has an owner")) {
      try await store.createAccount(
        cyd, credential: PasswordCredential(userID: cyd.id, passwordHash: bcryptB, role: .owner, updatedAt: now))
    }
    #expect(try await store.users().map(\.name) == ["ada", "bob"])
    #expect(try await store.credential(for: bob.id) == nil)

    // The owner changing their own password stays the owner.
    let changed = try PasswordCredential(userID: ada.id, passwordHash: bcryptB, role: .owner, updatedAt: now)
    try await store.setCredential(changed)
    #expect(try await store.credential(for: ada.id) == changed)
    #expect(try await store.ownerID() == ada.id)
  }

  @Test(arguments: StoreFactory.all)
  func aCredentialNeedsAnExistingUser(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let nobody = UUID()
    await #expect(throws: StoreError.notFound(.user(nobody))) {
      try await store.setCredential(
        PasswordCredential(userID: nobody, passwordHash: bcryptA, role: .member, updatedAt: Date()))
    }
  }

  @Test func aCredentialHoldsAHashNeverAPassword() {
    #expect(throws: ValidationError.self) {
      try PasswordCredential(userID: UUID(), passwordHash: "hunter2hunter2", role: .member, updatedAt: Date())
    }
  }
}
