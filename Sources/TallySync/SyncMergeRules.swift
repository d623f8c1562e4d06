import Foundation
import TallyCore
import TallyStore

/// The parts of merging a batch that do not depend on the database: every store's applier
/// follows them, so SQLite and PostgreSQL merge alike and only their SQL differs.
public enum SyncMergeRules {
  /// The batch in the order it is applied: by kind (parents before children, entries
  /// together), each kind in the order sent. Offsets are the changes' places in the batch.
  public static func ordered(_ changes: [SyncChange]) -> [(offset: Int, element: SyncChange)] {
    // One pass a kind rather than a sort: a first pull's pages are 5,000 changes.
    SyncKind.allCases.flatMap { kind in changes.indices.lazy.filter { changes[$0].kind == kind }.map { ($0, changes[$0]) } }
  }

  /// The newest stamp the store has seen once the batch is in.
  public static func latest(after changes: [SyncChange], latest: HybridStamp?) -> HybridStamp? {
    var latest = latest
    for change in changes { latest = HybridClock.seen(change.stamp, latest: latest) }
    return latest
  }

  /// What refuses a whole push when applying change `index` failed with `error`; other
  /// errors (the database's) pass through as they are.
  public static func refusal(for error: any Error, index: Int, key: SyncKey) -> any Error {
    switch error {
    case let error as ValidationError: SyncRefusal.invalid(index: index, error)
    case let error as SyncApplyError: SyncRefusal.unknown(index: index, key, error.reason)
    case let error as DecodingError:
      SyncRefusal.invalid(index: index, ValidationError(field: "fields", rule: DecodingErrorText.describe(error)))
    case let error as StoreError:
      SyncRefusal.invalid(index: index, ValidationError(field: "fields", rule: error.description))
    default: error
    }
  }

  /// A server takes a new entity only whole: every field of its kind, unless it is deleted.
  public static func checkComplete(
    _ key: SyncKey, before: SyncEntity?, after: SyncEntity, strict: Bool
  ) throws(ValidationError) {
    guard strict, before?.isComplete(key.kind) != true, after.deleted == nil, !after.isComplete(key.kind),
      key.kind != .settings
    else { return }
    let missing = key.kind.fields.subtracting(after.fields.keys).sorted()
    throw ValidationError(
      field: "fields", rule: "of a new \(key.kind.rawValue) must include \(missing.joined(separator: ", "))")
  }

  /// The notice for a child whose parent is deleted, or the refusal of a child whose parent a
  /// server never had; `nil` when the child may be merged.
  public static func parentCheck(_ key: SyncKey, parent: SyncKey, held: SyncEntity?, strict: Bool) throws
    -> SyncNotice?
  {
    if held?.deleted != nil {
      return SyncNotice(kind: key.kind, id: key.id, reason: "its \(parent.kind.rawValue) was deleted")
    }
    if held == nil, strict {
      throw SyncApplyError(reason: "this account has no \(parent.kind.rawValue) \(parent.id)")
    }
    return nil
  }

  /// `name (2)`, `name (3)`, … : the first that no habit holds, within the length limit.
  public static func freeName(_ name: String, taken: Set<String>) -> String {
    for n in 2... {
      let suffix = " (\(n))"
      let base = String(name.prefix(Habit.nameLengths.upperBound - suffix.count))
      let candidate = base + suffix
      if !taken.contains(NameKey.comparisonKey(candidate)) { return candidate }
    }
    return name
  }

  /// The notice for a change that lost to a deletion.
  public static func droppedNotice(_ key: SyncKey) -> SyncNotice {
    SyncNotice(kind: key.kind, id: key.id, reason: "the \(key.kind.rawValue) was deleted on another device")
  }

  public static let idTaken = "this id cannot be used; give the new entity a new id"
}

/// A change naming something this account never had, or cannot have.
public struct SyncApplyError: Error {
  public let reason: String

  public init(reason: String) {
    self.reason = reason
  }
}
