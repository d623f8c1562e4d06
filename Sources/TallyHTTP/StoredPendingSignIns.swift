import Foundation
import TallyAccounts
import TallyOIDC
import TallyStore

/// Sign-ins in progress kept in the database, so that with several instances on PostgreSQL the
/// provider may send a person back to any of them. The row's key is the state's SHA-256: the
/// state travels in URLs and logs, the key never does.
struct StoredPendingSignIns: PendingSignInStore {
  let store: any PendingSignInRepository
  let lifetime: TimeInterval = 600
  let capacity = 10_000

  func keep(_ pending: PendingSignIn) async throws {
    let body = String(decoding: try JSONEncoder().encode(pending), as: UTF8.self)
    try await store.keepPendingSignIn(
      key: Self.key(pending.state), body: body, at: pending.createdAt, lifetime: lifetime, capacity: capacity)
  }

  func take(state: String, at now: Date) async throws -> PendingSignIn? {
    guard state.utf8.count <= 256,
      let body = try await store.takePendingSignIn(key: Self.key(state), at: now, lifetime: lifetime)
    else { return nil }
    return try? JSONDecoder().decode(PendingSignIn.self, from: Data(body.utf8))
  }

  static func key(_ state: String) -> String { SecretToken(secret: state).hash }
}
