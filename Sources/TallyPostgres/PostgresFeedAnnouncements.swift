import Foundation
import Logging
import PostgresNIO
import Synchronization
import TallyStore

/// How instances on one database learn of each other's commits (docs/sync.md "Live changes").
///
/// Once a write that took feed positions has committed, its instance sends "<user> <position>"
/// on ``channel`` (``CommitAnnouncements``). Each instance listens on one connection of its
/// own and moves its ``FeedHeads``; heads only move forward, so announcements that arrive out
/// of order do no harm. "heads <instance>" (``headsMissed(by:)``) says that instance may have
/// lost an announcement, and every other instance forgets its heads and wakes its streams to
/// read them again. A change to
/// a user, a token or a session (migration v5's triggers, rare, in the changing transaction)
/// says "sign-ins", and the instance forgets its ``SignInCache``. While it is not listening
/// (starting, or the connection was lost) it keeps no head and no sign-in, so every one is
/// read from the database; once listening again it forgets what it had and wakes every
/// stream to read its head.
enum PostgresFeedAnnouncements {
  static let channel = "tally_feed"
  static let signInsChanged = "sign-ins"

  /// What `instance` sends when it may have committed without announcing it.
  static func headsMissed(by instance: UUID) -> String { "heads \(instance.storeText)" }

  /// Listens until the task is cancelled, reconnecting a second after a failure.
  static func listen(
    client: PostgresClient, instance: UUID, heads: FeedHeads, signIns: SignInCache, logger: Logger
  ) async {
    let ownMisses = headsMissed(by: instance)
    while !Task.isCancelled {
      do {
        try await client.withConnection { connection in
          try await connection.listen(on: channel) { notifications in
            heads.forgetAll(tracking: true)
            signIns.forgetAll(tracking: true)
            for try await notification in notifications {
              if notification.payload == signInsChanged {
                signIns.forgetAll()
              } else if notification.payload.hasPrefix("heads ") {
                // This instance's own heads are moved as its commits end.
                if notification.payload != ownMisses { heads.forgetAll(tracking: true) }
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

  static func payload(_ user: UUID, _ position: Int64) -> String { "\(user.storeText) \(position)" }

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
