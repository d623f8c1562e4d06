import Foundation
import TallySync

/// One replica's side of sync: pushes the outbox, then pulls the account's changes, until
/// both sides have everything (docs/sync.md).
///
/// Safe to kill at any point: the outbox loses a batch only after the server acknowledged
/// it (a batch sent twice changes nothing), and each pulled page is merged in the same
/// transaction that keeps its cursor.
public struct SyncClient: Sendable {
  public let store: any SyncRepository
  public let user: UUID
  public let transport: any SyncTransport
  /// Waits between retries; tests pass one that does not.
  public var sleep: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
  public var clock: @Sendable () -> Date = { Date() }
  public var pushBatch = 500
  /// The server's largest page: fewer round trips and transactions for a first pull.
  public var pullPage = 5_000
  /// Tries of one exchange before the sync gives up (it is resumed by the next one).
  public var attempts = 5

  public init(store: any SyncRepository, user: UUID, transport: any SyncTransport) {
    self.store = store
    self.user = user
    self.transport = transport
  }

  /// Pushes and pulls until nothing is waiting on either side. Records the outcome, error
  /// included, for `tally sync --status`.
  @discardableResult
  public func sync() async throws -> SyncSummary {
    do {
      let summary = try await exchange()
      try await store.recordSyncOutcome(at: clock(), error: nil, for: user)
      return summary
    } catch {
      try? await store.recordSyncOutcome(at: clock(), error: "\(error)", for: user)
      throw error
    }
  }

  private func exchange() async throws -> SyncSummary {
    guard var remote = try await store.syncRemote(for: user) else { throw SyncClientError.notAttached }
    let device = try await store.syncDevice()
    var summary = SyncSummary()
    // Merging a pull may rename a habit here, which queues a change: a second round sends it.
    for _ in 0..<3 {
      try await push(device: device, into: &summary)
      remote.cursor = try await pull(from: remote.cursor, into: &summary)
      if try await store.outboxCount(for: user) == 0 { break }
    }
    return summary
  }

  private func push(device: UUID, into summary: inout SyncSummary) async throws {
    while true {
      let items = try await store.outbox(for: user, limit: pushBatch)
      guard let last = items.last else { return }
      let batch = SyncPushRequest(device: device, changes: items.map(\.change))
      let answer = try await retrying { try await transport.push(batch) }
      try await store.removeFromOutbox(through: last.id, for: user)
      summary.pushed += items.count
      summary.appliedOnServer += answer.applied
      summary.add(answer)
    }
  }

  /// The next page is asked for while this one is merged: the server and the network are
  /// about a third of a first pull. Each page is still merged with its own cursor, in order.
  private func pull(from start: String?, into summary: inout SyncSummary) async throws -> String? {
    var cursor = start
    var ahead: Task<(SyncPullResponse, SyncEntryRun?), any Error>?
    defer { ahead?.cancel() }
    while true {
      let page: SyncPullResponse
      let entries: SyncEntryRun?
      do {
        if let asked = ahead {
          ahead = nil
          (page, entries) = try await asked.value
        } else {
          (page, entries) = try await fetch(after: cursor)
        }
      } catch let error as SyncTransportError where error.isStaleCursor && cursor != nil {
        // Merging is idempotent, so reading the whole feed again is only slower.
        cursor = nil
        continue
      }
      if page.more { ahead = Task { [page] in try await fetch(after: page.cursor) } }
      let report = try await store.applyPulled(page, entries: entries, for: user)
      summary.pulled += page.changes.count
      summary.appliedHere += report.applied
      summary.add(report)
      cursor = page.cursor
      if !page.more { return cursor }
    }
  }

  /// A page and its entries as rows, made here so the page before can merge meanwhile.
  private func fetch(after cursor: String?) async throws -> (SyncPullResponse, SyncEntryRun?) {
    let page = try await retrying { try await transport.pull(cursor: cursor, limit: pullPage) }
    return (page, SyncEntryRun(page.changes))
  }

  /// Runs `body`, waiting 0.5 s, 1 s, 2 s, … between tries while the failure is retryable.
  private func retrying<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
    var wait = Duration.milliseconds(500)
    var attempt = 1
    while true {
      do {
        return try await body()
      } catch let error as SyncTransportError where error.retryable && attempt < attempts {
        try await sleep(wait)
        wait *= 2
        attempt += 1
      }
    }
  }
}

/// What one sync moved.
public struct SyncSummary: Hashable, Sendable {
  public var pushed = 0
  public var pulled = 0
  /// Pushed changes that changed something on the server (a retried push changes nothing).
  public var appliedOnServer = 0
  /// Pulled changes that changed something here (one's own changes coming back do not).
  public var appliedHere = 0
  public var dropped: [SyncNotice] = []
  public var renamed: [SyncRename] = []

  public init() {}

  mutating func add(_ report: SyncPushResponse) {
    // The server and this replica may both report one rename; say it once.
    dropped += report.dropped.filter { !dropped.contains($0) }
    renamed += report.renamed.filter { rename in !renamed.contains { $0.id == rename.id && $0.to == rename.to } }
  }
}

public enum SyncClientError: Error, CustomStringConvertible {
  case notAttached

  public var description: String {
    "This database does not sync with a server yet: add one with 'tally remote add URL'."
  }
}
