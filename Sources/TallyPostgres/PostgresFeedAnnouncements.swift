import Foundation
import Logging
import PostgresNIO
import Synchronization
import TallyStore

/// How instances on one database learn of each other's commits (docs/sync.md "Live changes").
///
/// Every statement that takes feed positions also calls `pg_notify` on ``channel`` with
/// "<user> <position>", which PostgreSQL delivers to every listener when, and only if, the
/// transaction commits, in commit order. Each instance listens on one connection of its own
/// and moves its ``FeedHeads``. A change to a user, a token or a session (migration v5's
/// triggers) says "sign-ins", and the instance forgets its ``SignInCache``. While it is not
/// listening (starting, or the connection was lost) it keeps no head and no sign-in, so
/// every one is read from the database; once listening again it forgets what it had and
/// wakes every stream to read its head.
enum PostgresFeedAnnouncements {
  static let channel = "tally_feed"
  static let signInsChanged = "sign-ins"

  /// Listens until the task is cancelled, reconnecting a second after a failure.
  static func listen(client: PostgresClient, heads: FeedHeads, signIns: SignInCache, logger: Logger) async {
    while !Task.isCancelled {
      do {
        try await client.withConnection { connection in
          try await connection.listen(on: channel) { notifications in
            heads.forgetAll(tracking: true)
            signIns.forgetAll(tracking: true)
            for try await notification in notifications {
              if notification.payload == signInsChanged {
                signIns.forgetAll()
              } else if let (user, position) = parse(notification.payload) {
                heads.advance([user: position])
              }
            }
          }
        }
      } catch {
        if !Task.isCancelled { logger.warning("Not hearing other instances' commits: \(error)") }
      }
      heads.forgetAll(tracking: false)
      signIns.forgetAll(tracking: false)
      try? await Task.sleep(for: .seconds(1))
    }
  }

  static func parse(_ payload: String) -> (UUID, Int64)? {
    let parts = payload.split(separator: " ")
    guard parts.count == 2, let user = UUID(uuidString: String(parts[0])), let position = Int64(parts[1]) else {
      return nil
    }
    return (user, position)
  }
}

extension PendingChanges {
  /// The heads the running transaction moved, for ``PostgresAppDatabase/transaction(_:timeLimited:_:)``.
  @TaskLocal static var current: PendingChanges?
}
