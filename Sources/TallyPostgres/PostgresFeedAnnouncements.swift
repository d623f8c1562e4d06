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
/// of order do no harm. A change to a user, a token or a session (migration v5's triggers,
/// rare, in the changing transaction) says "sign-ins", and the instance forgets its
/// ``SignInCache``. While it is not listening (starting, or the connection was lost) it keeps
/// no head and no sign-in, so every one is read from the database; once listening again it
/// forgets what it had and wakes every stream to read its head.
///
/// An instance alone announces nothing: there is no one to tell. Instances learn of each
/// other by two messages, each naming its sender and its schema (instances of other Tally
/// databases in other schemas of the same PostgreSQL database are ignored):
/// - "hello <instance> <schema>", sent whenever an instance starts listening: every other
///   forgets its heads (the newcomer may have stopped last time between a commit and its
///   announcement), announces from now on, and answers "heads <instance> <schema>";
/// - "heads <instance> <schema>": the sender may have committed without announcing it (it did
///   not yet know of the others, or an announcement failed), so every other forgets its
///   heads, and one that did not yet know of the sender announces from now on and says
///   "heads" too.
/// A head forgotten is read again from the database, after the sender's unannounced commits.
enum PostgresFeedAnnouncements {
  static let channel = "tally_feed"
  static let signInsChanged = "sign-ins"

  enum Greeting: String {
    case hello, heads
  }

  /// `greeting` from `instance`, which serves the Tally database in `schema`.
  static func say(_ greeting: Greeting, from instance: UUID, in schema: String) -> String {
    "\(greeting.rawValue) \(instance.storeText) \(schema)"
  }

  /// Listens until the task is cancelled, reconnecting a second after a failure.
  static func listen(
    pool: KeptConnections, heads: FeedHeads, signIns: SignInCache, announcements: CommitAnnouncements,
    logger: Logger
  ) async {
    let (instance, schema) = (announcements.instance, announcements.schema)
    while !Task.isCancelled {
      do {
        try await pool.withConnection { connection in
          // Each notification is handled on the thread that read it, not handed to Swift's pool.
          try await withTaskExecutorPreference(EventLoopExecutor.of(connection.eventLoop)) {
            try connection.checkOpen()
            return try await connection.listen(on: channel) { notifications in
              // A listener that stopped hearing without a word would keep heads that others'
              // commits moved on: asked now and then, a silent connection is closed and opened
              // again. Asked from the start, before the hello: a connection that falls silent
              // while the hello is on its way would otherwise hold this task, tracking, for good.
              async let _ = pool.keepChecking(connection, lent: true)
              heads.forgetAll(tracking: true)
              signIns.forgetAll(tracking: true)
              announcements.greet()
              try await send([say(.hello, from: instance, in: schema)], on: connection)
              for try await notification in notifications {
                if notification.payload == signInsChanged {
                  signIns.forgetAll()
                } else if let (greeting, sender, senders) = greeting(notification.payload) {
                  guard sender != instance, senders == schema else { continue }
                  heads.forgetAll(tracking: true)
                  if announcements.hearOtherInstance() || greeting == .hello {
                    try await send([say(.heads, from: instance, in: schema)], on: connection)
                  }
                } else if let (user, position) = parse(notification.payload) {
                  heads.advance([user: position])
                }
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

  /// Sends `payloads` on ``channel``; they are delivered once the statement's own transaction
  /// commits.
  static func send(_ payloads: [String], on connection: PostgresConnection) async throws {
    _ = try await connection.kept(PostgresKeptStatements.Announce(channel: channel, payloads: payloads))
  }

  /// The greeting, its sender and the sender's schema.
  static func greeting(_ payload: String) -> (Greeting, UUID, String)? {
    let parts = payload.split(separator: " ")
    guard parts.count == 3, let greeting = Greeting(rawValue: String(parts[0])),
      let sender = UUID(uuidString: String(parts[1]))
    else { return nil }
    return (greeting, sender, String(parts[2]))
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
