import Foundation

/// What a replica holds of one entity: each field's value with the stamp that set it, and
/// the deletion stamp once it is deleted. Merging is SPEC 11's last-writer-wins per field, or
/// per value for a kind whose fields change together.
public struct SyncEntity: Hashable, Sendable {
  public var fields: [String: SyncValue]
  public var stamps: [String: HybridStamp]
  public var deleted: HybridStamp?

  public init(
    fields: [String: SyncValue] = [:], stamps: [String: HybridStamp] = [:],
    deleted: HybridStamp? = nil
  ) {
    self.fields = fields
    self.stamps = stamps
    self.deleted = deleted
  }

  /// What merging one change did.
  public enum Outcome: Hashable, Sendable {
    /// Some field (or the deletion) was taken.
    case applied
    /// Every field already held a value with an equal or greater stamp: a replay, or a
    /// change that lost.
    case unchanged
    /// The entity is deleted for good; the change was not applied.
    case dropped
  }

  /// Merges `change` (of an entity of `kind`) into this state.
  public mutating func merge(_ change: SyncChange) -> Outcome {
    if deleted != nil, change.kind.deletionIsFinal {
      return change.deleted ? .unchanged : .dropped
    }
    if change.deleted {
      deleted = change.stamp
      fields = [:]
      stamps = [:]
      return .applied
    }
    if change.kind.changesWhole {
      // One value (SPEC 11: an entry per habit and day): the later change replaces it whole,
      // fields it leaves out included, so every replica keeps it under one stamp.
      if let held = stamps.values.max(), held >= change.stamp { return .unchanged }
      fields = change.fields
      stamps = change.fields.mapValues { _ in change.stamp }
      return .applied
    }
    var took = false
    for (name, value) in change.fields {
      if let held = stamps[name], held >= change.stamp { continue }
      fields[name] = value
      stamps[name] = change.stamp
      took = true
    }
    return took ? .applied : .unchanged
  }

  /// The entity as changes, one per distinct stamp, oldest first: what a pull sends so the
  /// receiver merges each field with the stamp that set it.
  public func changes(kind: SyncKind, id: String) -> [SyncChange] {
    if let deleted {
      return [SyncChange(kind: kind, id: id, stamp: deleted, deleted: true)]
    }
    var byStamp: [HybridStamp: [String: SyncValue]] = [:]
    for (name, stamp) in stamps {
      byStamp[stamp, default: [:]][name] = fields[name] ?? .null
    }
    return byStamp.keys.sorted().map { stamp in
      SyncChange(kind: kind, id: id, stamp: stamp, fields: byStamp[stamp]!)
    }
  }

  /// Whether every field of `kind` has a value: only then can the entity be materialised.
  public func isComplete(_ kind: SyncKind) -> Bool {
    deleted == nil && kind.requiredFields.allSatisfy { fields[$0] != nil }
  }
}
