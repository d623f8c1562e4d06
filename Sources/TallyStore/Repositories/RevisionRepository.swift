import Foundation

/// Each user's revision: a value that moves whenever a committed write may have changed what a
/// read of that user's data returns, by this process or any other. Readers that keep computed
/// answers (the server's response cache) or wait for changes (live streams) compare it; one
/// user's writes never move another's.
public protocol RevisionRepository: Sendable {
  /// The heads this process knows, moved as commits end (``FeedHeads``).
  var feedHeads: FeedHeads { get }

  /// The user's revision, exact: every commit that ended before the call is counted,
  /// whichever process or instance made it. What kept answers are checked against.
  func revision(for user: UUID) async throws -> StoreRevision

  /// The user's feed head as this process has heard it, from memory when it can: exact for
  /// this process's commits and, on SQLite, for every process's; another PostgreSQL
  /// instance's commit is heard within milliseconds of it. What polls and live streams use,
  /// which hear of such a commit by the announcement anyway.
  func heardHead(for user: UUID) async throws -> Int64

  /// Reads again the heads of watched users (``FeedHeads/watchedUsers``) when commits may
  /// have gone unseen: on SQLite, another process's on the same file; on PostgreSQL, any
  /// while the instance is not hearing announcements. Cheap when nothing was missed.
  func catchUp() async throws
}

/// Opaque: only equality means anything.
public struct StoreRevision: Hashable, Sendable, CustomStringConvertible {
  /// The user's feed position: every write of their data takes a new one.
  public var head: Int64

  public init(head: Int64) {
    self.head = head
  }

  public var description: String { "\(head)" }
}
