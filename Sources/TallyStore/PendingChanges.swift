import Foundation
import Synchronization

/// What one transaction changed that a process keeps in memory: the feed heads it moved (each
/// user's highest), for ``FeedHeads``, and whether it changed a user, a token or a session, for
/// ``SignInCache``. Handed over once the transaction commits, and dropped when it does not.
public final class PendingChanges: Sendable {
  private let state = Mutex(Committed())

  /// What a committed transaction changed.
  public struct Committed: Sendable {
    public var heads: [UUID: Int64] = [:]
    public var signIns = false

    /// Moves the heads and forgets the kept sign-ins that may have changed.
    public func announce(to heads: FeedHeads, _ signIns: SignInCache) {
      heads.advance(self.heads)
      if self.signIns { signIns.forgetAll() }
    }
  }

  public init() {}

  public func record(_ user: UUID, _ position: Int64) {
    state.withLock { $0.heads[user] = max(position, $0.heads[user] ?? position) }
  }

  /// A user, an API token or a session was changed or removed.
  public func recordSignInChange() {
    state.withLock { $0.signIns = true }
  }

  /// The heads recorded so far, each user's highest.
  public var heads: [UUID: Int64] { state.withLock { $0.heads } }

  /// Before each attempt: a transaction run again records its changes again.
  public func reset() {
    state.withLock { $0 = Committed() }
  }

  /// What was recorded, and forgets it.
  public func take() -> Committed {
    state.withLock { state in
      defer { state = Committed() }
      return state
    }
  }
}
