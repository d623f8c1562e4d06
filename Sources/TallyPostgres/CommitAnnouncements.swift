import Foundation
import Logging
import Synchronization

/// This instance's commits, told to every other instance (``PostgresFeedAnnouncements``) after
/// they have committed, gathered: one `pg_notify` statement under way at a time carries the
/// heads of every write that committed meanwhile. Until another instance has been heard of,
/// nothing is sent: one instance alone pays nothing for them.
///
/// Not from inside the write's transaction: PostgreSQL serializes the commits of every
/// transaction that notifies, database-wide, each holding one lock through its commit's
/// flush to disk, so the writes of different users, which row locks let run side by side,
/// would commit one flush at a time (pgbench figures in docs/storage.md "Revisions").
///
/// The cost is a window: an instance that stops between a commit and its announcement leaves
/// the others' heads for that user behind until the user's next write. So an instance says
/// "hello" when it starts listening and "heads" after an announcement it could not send, and
/// the others forget the heads they keep; they read them again.
final class CommitAnnouncements: Sendable {
  private let gathered = Gathered<UUID, Int64, Void>(merging: max, missing: ())
  /// Counts the announcements that could not be sent since one said so; 0 when none.
  private let missed = Mutex<UInt64>(0)
  private let othersHeard = Mutex(false)
  /// Names this instance in what it says.
  let instance = UUID()
  /// The schema of the Tally database it serves: instances serving other schemas are not heard.
  let schema: String

  init(schema: String) {
    self.schema = schema
  }

  /// Whether another instance on the database has been heard of: then commits are announced.
  var hearsOthers: Bool { othersHeard.withLock { $0 } }

  /// Another instance listens: announces from now on. True the first time, when this
  /// instance's commits so far went unannounced.
  func hearOtherInstance() -> Bool {
    othersHeard.withLock { heard in
      defer { heard = true }
      return !heard
    }
  }

  /// Tells the other instances of the heads `moved`; returns once they were sent (or logs why
  /// not), at once when there are none.
  func announce(_ moved: [UUID: Int64], on database: PostgresAppDatabase) async {
    guard hearsOthers else { return }
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

  /// Sends `payloads`, and that heads were missed if an earlier send failed.
  private func send(_ payloads: [String], on database: PostgresAppDatabase) async throws {
    let failures = missed.withLock { $0 }
    let payloads = payloads + (failures > 0 ? [PostgresFeedAnnouncements.say(.heads, from: instance, in: schema)] : [])
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
