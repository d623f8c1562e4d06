import Foundation
import Synchronization
import TallySync

/// This database's sync device id, read once: it names the server in every cursor, and it
/// never changes while the server runs.
package final class KnownSyncDevice: Sendable {
  private let known = Mutex<UUID?>(nil)

  package init() {}

  package func id(in store: any SyncingStore) async throws -> UUID {
    if let id = known.withLock({ $0 }) { return id }
    let id = try await store.syncDevice()
    known.withLock { $0 = id }
    return id
  }
}
