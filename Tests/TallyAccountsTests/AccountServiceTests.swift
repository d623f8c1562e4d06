import Foundation
import TallyAccounts
import TallyCore
import TallySQLite
import TallyStore
import Testing

/// Cost 4 is bcrypt's least: the rules are the same, the tests fast.
func makeService(_ store: any Store = SQLiteStore(try! AppDatabase.inMemory())) -> AccountService {
  AccountService(store: store, hasher: PasswordHasher(cost: 4))
}

let now = Date(timeIntervalSince1970: 1_773_000_000)
let utc = UserSettings(timeZone: "UTC")

@Suite struct AccountServiceTests {
  @Test func setUpMakesTheOwnerOnceAndClosesBehindThem() async throws {
    let service = makeService()
    #expect(try await service.needsSetUp())
    let ada = try await service.setUp(name: " ada ", password: "correct horse", settings: utc, at: now)
    #expect(ada.name == "ada")
    #expect(try await service.store.ownerID() == ada.id)
    #expect(try await !service.needsSetUp())
    await #expect(throws: AccountError.alreadySetUp) {
      try await service.setUp(name: "mallory", password: "correct horse", settings: utc, at: now)
    }
    #expect(try await service.store.users().map(\.name) == ["ada"])
  }

  @Test func setUpClaimsTheUserTheCommandLineMade() async throws {
    let store = SQLiteStore(try! AppDatabase.inMemory())
    let local = try await store.createUser(User(id: UUID(), name: "ada", settings: utc))
    let habit = try Habit(id: UUID(), name: "Read", createdDay: Day("2026-01-01")!)
    _ = try await store.createHabit(habit, for: local.id)
    let service = makeService(store)
    let owner = try await service.setUp(name: "ada", password: "correct horse", settings: utc, at: now)
    #expect(owner.id == local.id)
    #expect(try await store.habits(for: owner.id, includingArchived: true).map(\.id) == [habit.id])
  }

  @Test func signInChecksThePasswordAndOpensASessionFoundByItsSecret() async throws {
    let service = makeService()
    let ada = try await service.setUp(name: "ada", password: "correct horse", settings: utc, at: now)
    await #expect(throws: AccountError.wrongNameOrPassword) {
      try await service.signIn(name: "ada", password: "wrong horse", at: now)
    }
    await #expect(throws: AccountError.wrongNameOrPassword) {
      try await service.signIn(name: "bob", password: "correct horse", at: now)
    }
    let signedIn = try await service.signIn(name: "ada", password: "correct horse", at: now)
    #expect(signedIn.user == ada)
    // The store keeps the hash, never the secret.
    #expect(signedIn.session.tokenHash == signedIn.secret.hash)
    #expect(signedIn.session.tokenHash != signedIn.secret.secret)
    let found = try await service.user(forSession: signedIn.secret.secret, at: now.addingTimeInterval(60))
    #expect(found?.0 == ada)
    #expect(try await service.user(forSession: signedIn.secret.secret, at: now.addingTimeInterval(31 * 86_400)) == nil)
    try await service.signOut(signedIn.session)
    #expect(try await service.user(forSession: signedIn.secret.secret, at: now) == nil)
  }

  @Test func aUserTheCommandLineMadeCannotSignInUntilTheyHaveAPassword() async throws {
    let store = SQLiteStore(try! AppDatabase.inMemory())
    let local = try await store.createUser(User(id: UUID(), name: "cli", settings: utc))
    let service = makeService(store)
    await #expect(throws: AccountError.wrongNameOrPassword) {
      try await service.signIn(name: "cli", password: "anything at all", at: now)
    }
    try await service.setPassword("now it has one", for: local.id, at: now)
    #expect(try await service.signIn(name: "cli", password: "now it has one", at: now).user == local)
    #expect(try await store.credential(for: local.id)?.role == .member)
  }

  @Test func apiTokensOpenTheDoorUntilRevokedOrExpired() async throws {
    let service = makeService()
    let ada = try await service.setUp(name: "ada", password: "correct horse", settings: utc, at: now)
    let made = try await service.createAPIToken(
      name: "backup", for: ada.id, expiresAt: now.addingTimeInterval(3600), at: now)
    #expect(made.secret.secret.hasPrefix(SecretToken.apiTokenPrefix))
    #expect(try await service.user(forAPIToken: made.secret.secret, at: now) == ada)
    #expect(try await service.user(forAPIToken: made.secret.secret, at: now.addingTimeInterval(3600)) == nil)
    #expect(try await service.user(forAPIToken: made.secret.secret + "x", at: now) == nil)
    try await service.store.deleteAPIToken(id: made.token.id, for: ada.id)
    #expect(try await service.user(forAPIToken: made.secret.secret, at: now) == nil)
  }

  @Test(arguments: ["short", String(repeating: "é", count: 37)])
  func passwordsOutsideEightToSeventyTwoBytesAreRefused(_ password: String) async throws {
    let service = makeService()
    await #expect(throws: ValidationError.self) {
      try await service.setUp(name: "ada", password: password, settings: utc, at: now)
    }
    #expect(try await service.needsSetUp())
  }

  @Test func secretsAreDistinctAndHashedToSixtyFourHexDigits() {
    var generator = SystemRandomNumberGenerator()
    let secrets = (0..<100).map { _ in SecretToken.generate(using: &generator) }
    #expect(Set(secrets).count == 100)
    #expect(secrets.allSatisfy { $0.secret.count == 43 && !$0.secret.contains("=") })
    // SHA-256 of "abc", the FIPS 180-2 example.
    #expect(SecretToken(secret: "abc").hash == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
  }
}

/// The throttle on SQLite in memory; the contract suite holds every store to the same
/// counting, and PostgreSQL to it across instances.
@Suite struct SignInThrottleTests {
  func throttle(limit: Int) throws -> SignInThrottle {
    SignInThrottle(attempts: SQLiteStore(try AppDatabase.inMemory()), limit: limit, window: 900)
  }

  @Test func fiveFailuresCloseTheDoorUntilTheOldestLeavesTheWindow() async throws {
    let throttle = try throttle(limit: 5)
    let key = SignInThrottle.key(name: "ada", address: "10.0.0.1")
    for minute in 0..<5 {
      _ = try await throttle.attempt(key, at: now.addingTimeInterval(Double(minute) * 60))
    }
    await #expect(throws: AccountError.throttled(retryAfter: 600)) {
      try await throttle.attempt(key, at: now.addingTimeInterval(300))
    }
    // Another address, or another name, is counted apart; the name is trimmed as sign-in does.
    _ = try await throttle.attempt(SignInThrottle.key(name: "ada", address: "10.0.0.2"), at: now.addingTimeInterval(300))
    _ = try await throttle.attempt(SignInThrottle.key(name: "bob", address: "10.0.0.1"), at: now.addingTimeInterval(300))
    await #expect(throws: AccountError.self) {
      try await throttle.attempt(SignInThrottle.key(name: " ada\n", address: "10.0.0.1"), at: now.addingTimeInterval(300))
    }
    _ = try await throttle.attempt(key, at: now.addingTimeInterval(900))
  }

  @Test func successClearsTheCount() async throws {
    let throttle = try throttle(limit: 2)
    _ = try await throttle.attempt("k", at: now)
    _ = try await throttle.attempt("k", at: now)
    await #expect(throws: AccountError.self) { try await throttle.attempt("k", at: now) }
    await throttle.reset("k")
    _ = try await throttle.attempt("k", at: now)
  }

  @Test func anAttemptWithoutAVerdictIsGivenBack() async throws {
    let throttle = try throttle(limit: 1)
    let attempt = try await throttle.attempt("k", at: now)
    await throttle.release(attempt)
    _ = try await throttle.attempt("k", at: now)
  }

  /// Issue 17: sixteen attempts at once, only the limit's worth get through to the password.
  @Test func parallelAttemptsAreCountedBeforeAnyIsChecked() async throws {
    let throttle = try throttle(limit: 5)
    let admitted = await withTaskGroup(of: Bool.self) { group in
      for _ in 0..<16 {
        group.addTask { (try? await throttle.attempt("k", at: now)) != nil }
      }
      return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
    }
    #expect(admitted == 5)
  }

  @Test func aKeyIsADigestOfTheTrimmedNameAndTheAddress() {
    let key = SignInThrottle.key(name: " ada ", address: "10.0.0.1")
    #expect(key == SignInThrottle.key(name: "ada", address: "10.0.0.1"))
    #expect(key.count == 64 && key.allSatisfy(\.isHexDigit))
    #expect(key != SignInThrottle.key(name: "Ada", address: "10.0.0.1"))
    #expect(key != SignInThrottle.key(name: "ada1", address: "0.0.0.1"))
    #expect(SignInThrottle.key(name: String(repeating: "a", count: 10_000), address: "::1").count == 64)
  }
}
