import Foundation
import TallyCore
import TallyStore

extension AccountService {
  /// The account a trusted proxy's user header names, made at first sight
  /// (`--trusted-user-create`): the owner when the server has none yet, else a member. Its
  /// password is a random one nobody is told; the proxy is how its person signs in.
  public func accountNamedByProxy(_ name: String, at now: Date) async throws -> User {
    if let user = try? await store.user(named: name) { return user }
    let role: AccountRole = try await needsSetUp() ? .owner : .member
    do {
      return try await createAccount(
        name: name, passwordHash: unknownPasswordHash(), role: role, settings: UserSettings(timeZone: "UTC"), at: now)
    } catch StoreError.conflict(let what) {
      // Two first requests at once (a page and its scripts): the other one made it.
      if let user = try? await store.user(named: name) { return user }
      throw StoreError.conflict(what)
    }
  }
}
