import Foundation
import Logging
import PostgresNIO
import Synchronization
import TallyStore

/// This instance's commits, told to every other instance (``PostgresFeedAnnouncements``) just
/// after their `COMMIT`, before the write is answered, on a writing connection: the write's
/// own, or that of a write whose announcement waited with it (``SentTogether``). Once it
/// has said hello and waited for an answer in vain, an instance alone sends nothing: it pays
/// nothing.
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
///
/// A newcomer announces from its start until a while after each hello (``grace``) even if it
/// has heard no one: an instance that heard the hello forgot its heads and reads them again,
/// so a commit of the newcomer's after that read and before the answer reached it would be
/// missed there until the user's next write.
final class CommitAnnouncements: Sendable {
  /// Counts the announcements that could not be sent since one said so; 0 when none.
  private let missed = Mutex<UInt64>(0)
  /// Whether another instance has been heard of, and until when commits are announced with
  /// none heard of (none: until a hello).
  private let company = Mutex<(heard: Bool, greetedUntil: ContinuousClock.Instant?)>((false, nil))
  /// How long after a hello an answer is waited for.
  let grace: Duration
  /// The heads waiting to be announced while an announcement is sent.
  private let line = SentTogether<[UUID: Int64]>()
  /// Names this instance in what it says.
  let instance = UUID()
  /// The schema of the Tally database it serves: instances serving other schemas are not heard.
  let schema: String

  init(schema: String, grace: Duration = .seconds(5)) {
    self.schema = schema
    self.grace = grace
  }

  /// Whether another instance on the database has been heard of.
  var hearsOthers: Bool { company.withLock { $0.heard } }

  /// Whether commits are announced: once another instance has been heard of, and while this
  /// one may have been heard without having heard the answer yet.
  var announces: Bool {
    company.withLock { $0.heard || $0.greetedUntil.map { ContinuousClock.now < $0 } ?? true }
  }

  /// Just before this instance says hello.
  func greet() {
    company.withLock { $0.greetedUntil = .now + grace }
  }

  /// Another instance listens: announces from now on. True the first time, when this
  /// instance's commits so far went unannounced.
  func hearOtherInstance() -> Bool {
    company.withLock { company in
      defer { company.heard = true }
      return !company.heard
    }
  }

  /// Tells the other instances of the heads that a transaction on `connection`, which has just
  /// committed, recorded in `pending`, and that heads were missed if an earlier announcement
  /// failed; logs a failure, which the next announcement makes good. Announcements asked for
  /// while one is being sent go together in the next (``SentTogether``): each notifying
  /// transaction wakes every instance's listening backend, which reads it in a transaction of
  /// its own.
  func announce(_ pending: PendingChanges?, on connection: PostgresConnection, logger: Logger) async {
    guard announces, let moved = pending?.heads, !moved.isEmpty else { return }
    _ = await line.send([moved]) { [self] batch in
      let failures = missed.withLock { $0 }
      let heads = batch.reduce(into: [:]) { $0.merge($1, uniquingKeysWith: max) }
      var payloads = heads.map { PostgresFeedAnnouncements.payload($0.key, $0.value) }
      if failures > 0 { payloads.append(PostgresFeedAnnouncements.say(.heads, from: instance, in: schema)) }
      do {
        try await PostgresFeedAnnouncements.send(payloads, on: connection)
      } catch {
        missed.withLock { $0 += 1 }
        logger.warning("Other instances will hear late of a change: \(error)")
        return false
      }
      // A failure meanwhile is said by the next.
      missed.withLock { if $0 == failures { $0 = 0 } }
      return true
    }
  }
}
