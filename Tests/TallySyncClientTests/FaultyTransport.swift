import Foundation
import TallySync
import TallySyncClient

/// A transport with the network's faults, for one sync: answers lost after the server
/// committed, a connection that dies in the middle of a pull, pushes that arrive twice, and
/// an old batch arriving again after newer ones.
final class FaultyTransport: SyncTransport, @unchecked Sendable {
  enum Fault: Int, CaseIterable {
    case none, loseFirstPushAnswer, dieOnSecondPull, duplicatePushes, replayOldBatch
  }

  let inner: any SyncTransport
  let fault: Fault
  /// Batches this device pushed before, shared across syncs so an old one can come back.
  let history: BatchHistory
  private let lock = NSLock()
  private var pushes = 0
  private var pulls = 0

  init(inner: any SyncTransport, fault: Fault, history: BatchHistory) {
    self.inner = inner
    self.fault = fault
    self.history = history
  }

  func pull(cursor: String?, limit: Int) async throws -> SyncPullResponse {
    let count = lock.withLock { pulls += 1; return pulls }
    if fault == .dieOnSecondPull, count == 2 {
      throw SyncTransportError(status: nil, message: "connection reset during a pull", retryable: false)
    }
    // Small pages, so a pull is several pages and can die between them.
    return try await inner.pull(cursor: cursor, limit: min(limit, 7))
  }

  func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
    let count = lock.withLock { pushes += 1; return pushes }
    if fault == .replayOldBatch, let old = history.oldest() {
      _ = try await inner.push(old)
    }
    let answer = try await inner.push(request)
    history.add(request)
    if fault == .duplicatePushes { _ = try await inner.push(request) }
    if fault == .loseFirstPushAnswer, count == 1 {
      throw SyncTransportError(status: nil, message: "connection reset after the push", retryable: false)
    }
    return answer
  }
}

final class BatchHistory: @unchecked Sendable {
  private let lock = NSLock()
  private var batches: [SyncPushRequest] = []

  func add(_ batch: SyncPushRequest) { lock.withLock { batches.append(batch) } }

  func oldest() -> SyncPushRequest? { lock.withLock { batches.first } }
}
