import Foundation

/// `POST /api/v1/sync`: a device's own changes, applied all or nothing.
public struct SyncPushRequest: Codable, Hashable, Sendable {
  public var device: UUID
  public var changes: [SyncChange]

  public init(device: UUID, changes: [SyncChange]) {
    self.device = device
    self.changes = changes
  }

  private enum CodingKeys: String, CodingKey { case device, changes }

  public init(from decoder: any Decoder) throws {
    try UnknownKeys.refuse(in: decoder, known: ["device", "changes"])
    let c = try decoder.container(keyedBy: CodingKeys.self)
    device = try c.decode(UUID.self, forKey: .device)
    changes = try c.decode([SyncChange].self, forKey: .changes)
  }
}

/// What a push did. Dropped changes were about something deleted for good (SPEC 11); renamed
/// entities took a name another already had.
public struct SyncPushResponse: Codable, Hashable, Sendable {
  public var applied: Int
  public var unchanged: Int
  public var dropped: [SyncNotice]
  public var renamed: [SyncRename]

  public init(applied: Int = 0, unchanged: Int = 0, dropped: [SyncNotice] = [], renamed: [SyncRename] = []) {
    self.applied = applied
    self.unchanged = unchanged
    self.dropped = dropped
    self.renamed = renamed
  }
}

/// A change that was not applied, and why, in a sentence.
public struct SyncNotice: Codable, Hashable, Sendable {
  public var kind: SyncKind
  public var id: String
  public var reason: String

  public init(kind: SyncKind, id: String, reason: String) {
    self.kind = kind
    self.id = id
    self.reason = reason
  }
}

/// A habit or show given a free name because another held the one it was given.
public struct SyncRename: Codable, Hashable, Sendable {
  public var kind: SyncKind
  public var id: String
  public var from: String
  public var to: String

  public init(kind: SyncKind, id: String, from: String, to: String) {
    self.kind = kind
    self.id = id
    self.from = from
    self.to = to
  }
}

/// `GET /api/v1/sync?cursor=`: a page of the account's changes after the cursor, in the order
/// the server took them. `more` says another page follows at once.
public struct SyncPullResponse: Codable, Hashable, Sendable {
  public var changes: [SyncChange]
  public var cursor: String
  public var more: Bool

  public init(changes: [SyncChange], cursor: String, more: Bool) {
    self.changes = changes
    self.cursor = cursor
    self.more = more
  }
}
