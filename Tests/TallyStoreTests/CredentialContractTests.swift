import Foundation
import TallyCore
import TallyStore
import Testing

@Suite struct CredentialContractTests {
  @Test(arguments: StoreFactory.all)
  func tokensAreFoundByHashUntilTheyExpire(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store, "ada")
    let bob = try await makeUser(store, "bob")
    let forever = try APIToken(
      id: UUID(), userID: ada.id, tokenHash: hashA.uppercased(), name: " backup script ",
      createdAt: instant("2026-03-01T10:00:00.5Z"))
    let monthly = try APIToken(
      id: UUID(), userID: ada.id, tokenHash: hashB, name: "phone",
      createdAt: instant("2026-03-02T10:00:00Z"), expiresAt: instant("2026-04-02T10:00:00Z"))
    #expect(try await store.createAPIToken(forever) == forever)
    #expect(forever.tokenHash == hashA && forever.name == "backup script")
    _ = try await store.createAPIToken(monthly)

    let now = instant("2026-03-08T12:00:00Z")
    #expect(try await store.apiToken(hash: hashA, at: now) == forever)
    #expect(try await store.apiToken(hash: hashA.uppercased(), at: now) == forever)
    #expect(try await store.apiToken(hash: hashB, at: now) == monthly)
    #expect(try await store.apiToken(hash: hashB, at: instant("2026-04-02T10:00:00Z")) == nil)
    #expect(try await store.apiToken(hash: hashC, at: now) == nil)
    #expect(try await store.apiTokens(for: ada.id) == [monthly, forever])
    #expect(try await store.apiTokens(for: bob.id).isEmpty)

    await #expect(throws: StoreError.conflict("an API token with this hash already exists")) {
      try await store.createAPIToken(APIToken(
        id: UUID(), userID: bob.id, tokenHash: hashA, name: "copy", createdAt: now))
    }
    await #expect(throws: StoreError.notFound(.apiToken(forever.id))) {
      try await store.deleteAPIToken(id: forever.id, for: bob.id)
    }
    try await store.deleteAPIToken(id: forever.id, for: ada.id)
    #expect(try await store.apiToken(hash: hashA, at: now) == nil)
    #expect(try await store.apiTokens(for: ada.id) == [monthly])
    let nobody = UUID()
    await #expect(throws: StoreError.notFound(.user(nobody))) {
      try await store.createAPIToken(APIToken(
        id: UUID(), userID: nobody, tokenHash: hashC, name: "x", createdAt: now))
    }
  }

  /// SQLite would hand back "a" for "a\u{0}b", and "" (a broken row) for "\u{0}".
  @Test func aTokenNameWithNulIsRefused() {
    #expect(throws: ValidationError(field: "token name", rule: "must not contain the NUL character (U+0000)")) {
      try APIToken(id: UUID(), userID: UUID(), tokenHash: hashA, name: "\u{0}", createdAt: Date())
    }
  }

  @Test func aTokenHashMustBeADigest() {
    #expect(throws: ValidationError.self) {
      try APIToken(id: UUID(), userID: UUID(), tokenHash: "secret-token", name: "x", createdAt: Date())
    }
  }

  @Test(arguments: StoreFactory.all)
  func sessionsAreFoundUntilTheyExpireAndThenSweptAway(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store, "ada")
    let bob = try await makeUser(store, "bob")
    let short = try BrowserSession(
      id: UUID(), userID: ada.id, tokenHash: hashA, createdAt: instant("2026-03-01T00:00:00Z"),
      expiresAt: instant("2026-03-02T00:00:00Z"))
    let long = try BrowserSession(
      id: UUID(), userID: bob.id, tokenHash: hashB, createdAt: instant("2026-03-01T00:00:00Z"),
      expiresAt: instant("2026-04-01T00:00:00Z"))
    #expect(try await store.createSession(short) == short)
    _ = try await store.createSession(long)
    await #expect(throws: StoreError.conflict("a session with id \(short.id.storeText) already exists")) {
      try await store.createSession(short)
    }

    #expect(try await store.session(hash: hashA, at: instant("2026-03-01T12:00:00Z")) == short)
    #expect(try await store.session(hash: hashA, at: instant("2026-03-02T00:00:00Z")) == nil)
    #expect(try await store.deleteSessions(expiredAt: instant("2026-03-02T00:00:00Z")) == 1)
    #expect(try await store.deleteSessions(expiredAt: instant("2026-03-02T00:00:00Z")) == 0)
    #expect(try await store.session(hash: hashB, at: instant("2026-03-02T00:00:00Z")) == long)

    await #expect(throws: StoreError.notFound(.session(long.id))) {
      try await store.deleteSession(id: long.id, for: ada.id)
    }
    try await store.deleteSession(id: long.id, for: bob.id)
    #expect(try await store.session(hash: hashB, at: instant("2026-03-02T00:00:00Z")) == nil)
  }

  @Test(arguments: StoreFactory.all)
  func aReminderIsRecordedOnce(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let habit = try await addHabit(store, for: ada)
    let morning = ReminderOccurrenceKey(habitID: habit.id, day: day("2026-03-08"), time: try WallTime(hour: 8))
    let evening = ReminderOccurrenceKey(habitID: habit.id, day: day("2026-03-08"), time: try WallTime(hour: 20))
    let sent = instant("2026-03-08T07:00:00.250Z")
    #expect(try await store.delivery(morning, for: ada.id) == nil)
    #expect(try await store.recordDelivery(morning, sentAt: sent, for: ada.id))
    #expect(try await store.recordDelivery(morning, sentAt: instant("2026-03-08T07:05:00Z"), for: ada.id) == false)
    #expect(try await store.delivery(morning, for: ada.id) == sent)
    #expect(try await store.recordDelivery(evening, sentAt: instant("2026-03-08T19:00:00Z"), for: ada.id))

    #expect(try await store.deleteDeliveries(sentBefore: instant("2026-03-08T12:00:00Z"), for: ada.id) == 1)
    #expect(try await store.delivery(morning, for: ada.id) == nil)
    #expect(try await store.delivery(evening, for: ada.id) != nil)
    let missing = ReminderOccurrenceKey(habitID: UUID(), day: day("2026-03-08"), time: try WallTime(hour: 8))
    await #expect(throws: StoreError.notFound(.habit(missing.habitID))) {
      try await store.recordDelivery(missing, sentAt: sent, for: ada.id)
    }
  }
}
