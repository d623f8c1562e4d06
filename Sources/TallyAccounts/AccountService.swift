import Foundation
import Synchronization
import TallyCore
import TallyStore

/// Set-up, accounts, sign-in, sessions and API tokens over a store.
///
/// The moment every action happens at is a parameter and secrets come from an injected
/// source, so tests fix both.
public struct AccountService: Sendable {
  public let store: any Store
  public let hasher: PasswordHasher
  /// How long a browser stays signed in.
  public var sessionLifetime: TimeInterval
  let makeSecret: @Sendable (_ prefix: String) -> SecretToken
  private let decoy = DecoyHash()

  public init(
    store: any Store,
    hasher: PasswordHasher = PasswordHasher(),
    sessionLifetime: TimeInterval = 30 * 86_400,
    makeSecret: @escaping @Sendable (_ prefix: String) -> SecretToken = { prefix in
      var generator = SystemRandomNumberGenerator()
      return SecretToken.generate(prefix: prefix, using: &generator)
    }
  ) {
    self.store = store
    self.hasher = hasher
    self.sessionLifetime = sessionLifetime
    self.makeSecret = makeSecret
  }

  /// Whether the server still waits for its owner.
  public func needsSetUp() async throws -> Bool {
    try await store.ownerID() == nil
  }

  /// Makes the owner. A user of that name the command line already made (with no password) is
  /// claimed, so their habits become the owner's; otherwise a new user gets `settings`.
  public func setUp(name: String, password: String, settings: UserSettings, at now: Date)
    async throws -> User
  {
    guard try await needsSetUp() else { throw AccountError.alreadySetUp }
    try PasswordRule.check(password)
    let hash = hasher.hash(password)
    let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
    if let existing = try? await store.user(named: trimmed),
      try await store.credential(for: existing.id) == nil
    {
      do {
        try await store.setCredential(
          PasswordCredential(userID: existing.id, passwordHash: hash, role: .owner, updatedAt: now))
      } catch StoreError.conflict {
        throw AccountError.alreadySetUp
      }
      return existing
    }
    do {
      return try await createAccount(name: trimmed, passwordHash: hash, role: .owner, settings: settings, at: now)
    } catch StoreError.conflict(let what) {
      // Another set-up won the race: say so rather than "name taken".
      if try await store.ownerID() != nil { throw AccountError.alreadySetUp }
      throw StoreError.conflict(what)
    }
  }

  /// A new account that can sign in (what the owner's "add user" and `tally user add` do).
  public func addUser(
    name: String, password: String, role: AccountRole = .member, settings: UserSettings, at now: Date
  ) async throws -> User {
    try PasswordRule.check(password)
    return try await createAccount(
      name: name, passwordHash: hasher.hash(password), role: role, settings: settings, at: now)
  }

  /// Sets or replaces a user's password, keeping their role (a user without one becomes a member).
  public func setPassword(_ password: String, for user: UUID, at now: Date) async throws {
    try PasswordRule.check(password)
    let role = try await store.credential(for: user)?.role ?? .member
    try await store.setCredential(
      PasswordCredential(userID: user, passwordHash: hasher.hash(password), role: role, updatedAt: now))
  }

  /// Checks the password and opens a browser session. The secret goes into the cookie; the
  /// store keeps only its hash.
  public func signIn(name: String, password: String, at now: Date) async throws
    -> (user: User, session: BrowserSession, secret: SecretToken)
  {
    let user = try? await store.user(named: name)
    let credential = try await user.asyncMap { try await store.credential(for: $0.id) } ?? nil
    // A missing user costs the same bcrypt work as a wrong password, so timing tells nothing.
    let hash = credential?.passwordHash ?? decoy.hash(with: hasher)
    guard hasher.verify(password, against: hash), let user, credential != nil else {
      throw AccountError.wrongNameOrPassword
    }
    let (session, secret) = try await openSession(for: user.id, at: now)
    return (user, session, secret)
  }

  /// A new browser session for a user who just proved who they are (signed in or set up).
  public func openSession(for user: UUID, at now: Date) async throws
    -> (session: BrowserSession, secret: SecretToken)
  {
    let secret = makeSecret("")
    let session = try await store.createSession(
      BrowserSession(
        id: UUID(), userID: user, tokenHash: secret.hash, createdAt: now,
        expiresAt: now.addingTimeInterval(sessionLifetime)))
    return (session, secret)
  }

  /// The signed-in user of a session cookie, if it is valid at `now`.
  public func user(forSession secret: String, at now: Date) async throws -> (User, BrowserSession)? {
    guard let session = try await store.session(hash: SecretToken(secret: secret).hash, at: now) else {
      return nil
    }
    return (try await store.user(id: session.userID), session)
  }

  public func signOut(_ session: BrowserSession) async throws {
    try await store.deleteSession(id: session.id, for: session.userID)
  }

  /// A new API token; the secret is returned once and never stored.
  public func createAPIToken(name: String, for user: UUID, expiresAt: Date? = nil, at now: Date)
    async throws -> (token: APIToken, secret: SecretToken)
  {
    let secret = makeSecret(SecretToken.apiTokenPrefix)
    let token = try await store.createAPIToken(
      APIToken(
        id: UUID(), userID: user, tokenHash: secret.hash, name: name, createdAt: now,
        expiresAt: expiresAt))
    return (token, secret)
  }

  /// The user an `Authorization: Bearer` secret belongs to, if it is valid at `now`.
  public func user(forAPIToken secret: String, at now: Date) async throws -> User? {
    guard let token = try await store.apiToken(hash: SecretToken(secret: secret).hash, at: now) else {
      return nil
    }
    return try await store.user(id: token.userID)
  }

  func createAccount(
    name: String, passwordHash: String, role: AccountRole, settings: UserSettings, at now: Date
  ) async throws -> User {
    let user = try User(id: UUID(), name: name, settings: settings)
    let credential = try PasswordCredential(
      userID: user.id, passwordHash: passwordHash, role: role, updatedAt: now)
    let created = try await store.createAccount(user, credential: credential)
    try await store.seedPrices(PriceTable.defaults, for: created.id)
    return created
  }

  /// The hash of a random password told to no one: what an account made by the provider or
  /// the proxy holds until the owner sets one from the CLI.
  func unknownPasswordHash() -> String {
    hasher.hash(makeSecret("").secret)
  }
}

/// A hash of a password nobody knows, at the service's cost, made on the first unknown name
/// rather than at start-up (bcrypt would slow the server's first answer).
final class DecoyHash: Sendable {
  private let stored = Mutex<String?>(nil)

  func hash(with hasher: PasswordHasher) -> String {
    stored.withLock { hash in
      if let hash { return hash }
      let made = hasher.hash(UUID().uuidString)
      hash = made
      return made
    }
  }
}

extension Optional {
  fileprivate func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
    guard let self else { return nil }
    return try await transform(self)
  }
}
