import Foundation
import Logging
import Synchronization

/// This instance's commits, told to every instance (``PostgresFeedAnnouncements``) after they
/// have committed, gathered: one `pg_notify` statement under way at a time carries the heads
/// of every write that committed meanwhile.
///
/// Not from inside the write's transaction: PostgreSQL serializes the commits of every
/// transaction that notifies, database-wide, each holding one lock through its commit's
/// flush to disk. With the notification in the write, sixteen clients writing different
/// rows committed 584–657 a second against 4,700–5,900 without it (pgbench, docs/storage.md).
///
/// The cost is a window: an instance that stops between a commit and its announcement leaves
/// the others' heads for that user behind until the user's next write. So an instance tells
/// every other, when it starts and after any announcement it could not send, to forget the
/// heads it keeps (``PostgresFeedAnnouncements/headsMissed(by:)``); they read them again.
final class CommitAnnouncements: Sendable {
  private let gathered = Gathered<UUID, Int64, Void>(merging: max, missing: ())
  /// Counts the announcements that could not be sent since one said so; 0 when none.
  private let missed = Mutex<UInt64>(0)

  /// Tells every instance of the heads `moved`; returns once they were sent, or logs why not.
  func announce(_ moved: [UUID: Int64], on database: PostgresAppDatabase) async {
    for (user, position) in moved {
      do {
        try await gathered.call(user, position) { [self] heads in
          try await send(heads.map { PostgresFeedAnnouncements.payload($0.key, $0.value) }, on: database)
          return [:]
        }
      } catch {
        database.logger.warning(
          "Other instances will hear late of a change by user \(user.uuidString): \(error)")
      }
    }
  }

  /// Tells every instance to forget the heads it keeps: commits may have gone unannounced.
  func announceMissedHeads(on database: PostgresAppDatabase) async {
    try? await send([PostgresFeedAnnouncements.headsMissed(by: database.instance)], on: database)
  }

  /// Sends `payloads`, and that heads were missed if an earlier send failed.
  private func send(_ payloads: [String], on database: PostgresAppDatabase) async throws {
    let failures = missed.withLock { $0 }
    let payloads = payloads + (failures > 0 ? [PostgresFeedAnnouncements.headsMissed(by: database.instance)] : [])
    do {
      _ = try await database.withConnection { connection in
        try await connection.kept(
          PostgresKeptStatements.Announce(channel: PostgresFeedAnnouncements.channel, payloads: payloads))
      }
    } catch {
      missed.withLock { $0 += 1 }
      throw error
    }
    // A send that failed meanwhile is said by the next.
    missed.withLock { if $0 == failures { $0 = 0 } }
  }
}
