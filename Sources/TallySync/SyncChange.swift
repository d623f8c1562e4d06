import Foundation
import TallyCore

/// One change made on one replica: some fields of one entity set at one stamp, or the
/// entity deleted. The unit a device pushes and pulls.
public struct SyncChange: Hashable, Sendable {
  public var kind: SyncKind
  public var id: String
  public var stamp: HybridStamp
  /// The fields set; empty for a deletion.
  public var fields: [String: SyncValue]
  public var deleted: Bool

  public init(
    kind: SyncKind, id: String, stamp: HybridStamp, fields: [String: SyncValue] = [:],
    deleted: Bool = false
  ) {
    self.kind = kind
    self.id = id
    self.stamp = stamp
    self.fields = fields
    self.deleted = deleted
  }

  /// The entity this change is about.
  public var key: SyncKey { SyncKey(kind: kind, id: id) }
}

/// An entity's identity across replicas.
public struct SyncKey: Hashable, Sendable, CustomStringConvertible {
  public var kind: SyncKind
  public var id: String

  public init(kind: SyncKind, id: String) {
    self.kind = kind
    self.id = id
  }

  public var description: String { "\(kind.rawValue) \(id)" }

  /// The parent's key (an entry's habit, an episode's show), read from the id.
  public var parent: SyncKey? {
    guard let kind = kind.parent, let (parent, _) = SyncID.split(id) else { return nil }
    return SyncKey(kind: kind, id: String(parent))
  }
}

extension SyncChange: Codable {
  private enum CodingKeys: String, CodingKey { case kind, id, stamp, fields, deleted }

  public init(from decoder: any Decoder) throws {
    try UnknownKeys.refuse(in: decoder, known: ["kind", "id", "stamp", "fields", "deleted"])
    let c = try decoder.container(keyedBy: CodingKeys.self)
    kind = try c.decode(SyncKind.self, forKey: .kind)
    id = try c.decode(String.self, forKey: .id)
    stamp = try c.decode(HybridStamp.self, forKey: .stamp)
    fields = try c.decodeIfPresent([String: SyncValue].self, forKey: .fields) ?? [:]
    deleted = try c.decodeIfPresent(Bool.self, forKey: .deleted) ?? false
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(kind, forKey: .kind)
    try c.encode(id, forKey: .id)
    try c.encode(stamp, forKey: .stamp)
    if deleted {
      try c.encode(true, forKey: .deleted)
    } else {
      try c.encode(fields, forKey: .fields)
    }
  }
}

/// Refuses a JSON object with a key the shape does not have: a misspelt field must not be
/// silently dropped from a push.
enum UnknownKeys {
  struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  static func refuse(in decoder: any Decoder, known: Set<String>) throws {
    let container = try decoder.container(keyedBy: Key.self)
    if let unknown = container.allKeys.map(\.stringValue).sorted().first(where: { !known.contains($0) }) {
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: container.codingPath + [Key(stringValue: unknown)],
          debugDescription: "'\(unknown)' is not a field here; the fields are \(known.sorted().joined(separator: ", "))"))
    }
  }
}
