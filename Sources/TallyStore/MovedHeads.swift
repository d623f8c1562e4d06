import Foundation
import Synchronization

/// The feed heads one transaction moved, each user's highest: handed to ``FeedHeads`` once the
/// transaction commits, and dropped when it does not.
public final class MovedHeads: Sendable {
  private let moved = Mutex<[UUID: Int64]>([:])

  public init() {}

  public func record(_ user: UUID, _ position: Int64) {
    moved.withLock { $0[user] = max(position, $0[user] ?? position) }
  }

  /// Before each attempt: a transaction run again takes its positions again.
  public func reset() {
    moved.withLock { $0.removeAll() }
  }

  /// What was recorded, and forgets it.
  public func take() -> [UUID: Int64] {
    moved.withLock { moved in
      defer { moved.removeAll() }
      return moved
    }
  }
}
