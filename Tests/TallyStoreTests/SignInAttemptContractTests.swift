import Foundation
import TallyPostgres
import TallySQLite
import TallyStore
import Testing

/// The sign-in throttle's count, kept by the database (issue 18).
@Suite struct SignInAttemptContractTests {
  static let window: TimeInterval = 900
  let start = instant("2026-03-08T12:00:00Z")

  func claim(_ store: any Store, _ key: String = "k", after seconds: TimeInterval = 0, limit: Int = 5) async throws
    -> SignInClaim
  {
    try await store.claimSignInAttempt(key, at: start.addingTimeInterval(seconds), limit: limit, window: Self.window)
  }

  @Test(arguments: StoreFactory.all)
  func theLimitIsCountedPerKeyAndTheOldestAttemptOpensTheDoorAgain(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    for minute in 0..<5 {
      guard case .counted = try await claim(store, after: Double(minute) * 60) else {
        Issue.record("attempt \(minute + 1) of 5 was refused")
        return
      }
    }
    #expect(try await claim(store, after: 300) == .refused(until: start.addingTimeInterval(Self.window)))
    #expect(try await claim(store, after: 899.999) == .refused(until: start.addingTimeInterval(Self.window)))
    // Another key has its own count.
    guard case .counted = try await claim(store, "other", after: 300) else {
      Issue.record("another key was refused")
      return
    }
    // At 15 minutes the first attempt has left the window: one more, then the second one's wait.
    guard case .counted = try await claim(store, after: Self.window) else {
      Issue.record("the window did not move")
      return
    }
    #expect(try await claim(store, after: Self.window) == .refused(until: start.addingTimeInterval(Self.window + 60)))
  }

  @Test(arguments: StoreFactory.all)
  func aReleasedAttemptIsGivenBackAndAClearedKeyStartsAgain(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    guard case .counted(let attempt) = try await claim(store, limit: 1) else {
      Issue.record("the first attempt was refused")
      return
    }
    #expect(try await claim(store, limit: 1) == .refused(until: start.addingTimeInterval(Self.window)))
    try await store.releaseSignInAttempt(attempt)
    try await store.releaseSignInAttempt(attempt)
    guard case .counted = try await claim(store, limit: 1) else {
      Issue.record("the released attempt still counted")
      return
    }
    guard case .counted = try await claim(store, "other", limit: 1) else {
      Issue.record("another key was refused")
      return
    }
    try await store.clearSignInAttempts("k")
    guard case .counted = try await claim(store, limit: 1) else {
      Issue.record("the cleared key still counted")
      return
    }
    // Clearing one key leaves the others.
    #expect(try await claim(store, "other", limit: 1) == .refused(until: start.addingTimeInterval(Self.window)))
  }

  /// Issue 17's race, in the database: sixteen claims at once, five counted.
  @Test(arguments: StoreFactory.all)
  func parallelClaimsNeverCountMoreThanTheLimit(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let claims = try await withThrowingTaskGroup(of: SignInClaim.self) { group in
      for _ in 0..<16 {
        group.addTask { try await claim(store) }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(claims.filter { if case .counted = $0 { true } else { false } }.count == 5)
    #expect(claims.filter { $0 == .refused(until: start.addingTimeInterval(Self.window)) }.count == 11)
    #expect(try await signInRows(store) == 5)
  }

  /// Keys tried once and never again do not pile up: a later claim deletes what left the window.
  @Test(arguments: StoreFactory.all)
  func attemptsThatLeftTheWindowAreDeleted(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    for index in 0..<40 {
      _ = try await claim(store, "key \(index)", after: Double(index))
    }
    #expect(try await signInRows(store) == 40)
    _ = try await claim(store, "late", after: Self.window + 20)
    // The first 21 (at 0…20 s) left the window; 19 and the new one are kept.
    #expect(try await signInRows(store) == 20)
  }

  @Test(arguments: StoreFactory.all)
  func aKeyLongerThanADigestIsRefused(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    await #expect(throws: StoreError.self) { try await claim(store, String(repeating: "k", count: 129)) }
    #expect(try await signInRows(store) == 0)
  }
}

/// How many attempts the store keeps, read beside the protocol (it has no such question).
func signInRows(_ store: any Store) async throws -> Int {
  let counts: [String: Int] =
    switch store {
    case let store as SQLiteStore: try await store.database.rowCounts(["sign_in_attempts"])
    case let store as PostgresStore: try await store.database.rowCounts(["sign_in_attempts"])
    default: [:]
    }
  return try #require(counts["sign_in_attempts"], "\(type(of: store)) has no count of sign-in attempts")
}
