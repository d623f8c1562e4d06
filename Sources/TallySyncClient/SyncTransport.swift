import Foundation
import TallySync

/// How a replica reaches its server. The HTTP one is ``HTTPSyncTransport``; tests and an
/// app with its own networking supply others.
public protocol SyncTransport: Sendable {
  /// A page of the account's changes after `cursor` (nil: from the start).
  func pull(cursor: String?, limit: Int) async throws -> SyncPullResponse
  /// Sends a batch; returns only once the server has committed it.
  func push(_ request: SyncPushRequest) async throws -> SyncPushResponse
}

/// A failed exchange with the server, in a sentence. `retryable` when trying again later may
/// work (no connection, a time-out, a 5xx or 429); otherwise the server refused what it got.
public struct SyncTransportError: Error, Sendable, CustomStringConvertible {
  public var status: Int?
  public var message: String
  public var retryable: Bool

  public init(status: Int?, message: String, retryable: Bool) {
    self.status = status
    self.message = message
    self.retryable = retryable
  }

  public var description: String {
    status.map { "The server answered \($0): \(message)" } ?? message
  }

  /// The server's refusal of a cursor from another account or server, or from before the
  /// server's data was restored: the replica starts its pull again from the beginning.
  public var isStaleCursor: Bool { status == 422 && message.contains("cursor") }
}

/// A transport that can also wait for the account's feed to move (docs/sync.md "Live
/// changes"): ``SyncClient/watch(_:report:)`` uses it.
public protocol LiveSyncTransport: SyncTransport {
  /// What the server says about the account's feed after `cursor`, as it says it; ends or
  /// throws when the connection does.
  func live(after cursor: String?) -> AsyncThrowingStream<LiveEvent, any Error>
}
