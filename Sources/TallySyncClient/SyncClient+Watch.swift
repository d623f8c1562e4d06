import Foundation
import TallySync

extension SyncClient {
  /// What ``watch(_:report:)`` tells as it goes.
  public enum WatchReport: Sendable {
    case synced(SyncSummary)
    /// A sync or the stream failed in a way that may pass; the watch tries again after `wait`.
    case failed(SyncTransportError, wait: Duration)
  }

  /// Syncs, then keeps the replica current until the task is cancelled: syncs again each time
  /// the server says the account's feed moved past this replica's cursor, and at a heartbeat
  /// when changes made here wait to be sent. A dropped stream is opened again after 1, 2, 4,
  /// … up to 30 seconds, with a sync first, so nothing said while it was down is missed. A
  /// refusal (a failure that trying again cannot mend) ends the watch by throwing it.
  public func watch(
    _ transport: any LiveSyncTransport, report: @Sendable (WatchReport) async -> Void
  ) async throws {
    var wait = Duration.seconds(1)
    while !Task.isCancelled {
      do {
        await report(.synced(try await sync()))
        let cursor = try await store.syncRemote(for: user)?.cursor
        for try await event in transport.live(after: cursor) {
          wait = .seconds(1)
          switch event {
          case .moved(let moved) where moved != (try await store.syncRemote(for: user)?.cursor):
            await report(.synced(try await sync()))
          case .quiet where try await store.outboxCount(for: user) > 0:
            await report(.synced(try await sync()))
          default:
            break
          }
        }
      } catch let error as SyncTransportError where error.retryable {
        await report(.failed(error, wait: wait))
      }
      try await sleep(wait)
      wait = min(wait * 2, .seconds(30))
    }
  }
}
