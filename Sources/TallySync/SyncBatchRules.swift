import Foundation
import TallyCore
import TallyStore

/// The limits a server holds pushes to.
public struct SyncLimits: Hashable, Sendable {
  /// Changes in one push.
  public var maxChanges: Int
  /// How far a stamp may be ahead of the server's clock. A device whose clock runs a day fast
  /// still syncs; one set years ahead would win every conflict until the end of that time.
  public var maxClockLead: TimeInterval
  /// Changes in one pull page.
  public var maxPage: Int

  public init(maxChanges: Int = 1_000, maxClockLead: TimeInterval = 2 * 86_400, maxPage: Int = 5_000) {
    self.maxChanges = maxChanges
    self.maxClockLead = maxClockLead
    self.maxPage = maxPage
  }

  public static let standard = SyncLimits()
}

/// A push refused whole: nothing of it was applied.
public enum SyncRefusal: Error, Sendable, CustomStringConvertible {
  /// More changes than ``SyncLimits/maxChanges``.
  case tooManyChanges(count: Int, limit: Int)
  /// A change breaks a rule; `index` is its place in the batch.
  case invalid(index: Int, ValidationError)
  /// A change names an entity of another account, or one this account never had.
  case unknown(index: Int, SyncKey, String)

  public var description: String {
    switch self {
    case .tooManyChanges(let count, let limit):
      "A push holds at most \(limit) changes; this one has \(count). Send them in several pushes."
    case .invalid(let index, let error):
      "Change \(index) (counting from 0): \(error.field) \(error.rule). Nothing of this push was applied."
    case .unknown(let index, let key, let reason):
      "Change \(index) (counting from 0), \(key): \(reason). Nothing of this push was applied."
    }
  }
}

/// The checks a push passes before anything is written: its shape, its stamps and its days.
/// The values themselves are checked when they are merged, by the models' own rules.
public enum SyncBatchRules {
  /// Days are the account's (`calendar`). A device may write any day up to the one its clock
  /// can be in when its stamps are still taken (``SyncLimits/maxClockLead`` ahead): a device a
  /// day fast in a zone already in tomorrow, with another day-switch hour, is two days ahead.
  public static func check(
    _ request: SyncPushRequest, server: UUID, now: Date, calendar: DayCalendar, limits: SyncLimits = .standard
  ) throws(SyncRefusal) {
    guard request.changes.count <= limits.maxChanges else {
      throw .tooManyChanges(count: request.changes.count, limit: limits.maxChanges)
    }
    let latest = now.addingTimeInterval(limits.maxClockLead)
    let today = calendar.day(containing: now)
    let lastDay = calendar.day(containing: latest)
    for (index, change) in request.changes.enumerated() {
      do throws(ValidationError) {
        guard request.device != server else {
          throw ValidationError(field: "device", rule: "is the server's own id; a device needs an id of its own")
        }
        guard change.stamp.device == request.device else {
          throw ValidationError(
            field: "stamp", rule: "names device \(change.stamp.device.uuidString.lowercased()), not the pushing device")
        }
        guard change.stamp.instant <= latest else {
          throw ValidationError(
            field: "stamp",
            rule: "is \(days(change.stamp.instant.timeIntervalSince(now))) ahead of the server's clock; check the device's date and time")
        }
        try checkShape(change)
        switch try SyncID(change.key) {
        case .entry(_, let day), .journal(let day):
          guard day <= lastDay else {
            throw ValidationError(field: "day", rule: "\(day) is in the future (the server's today is \(today))")
          }
          try Day.checkKept(day)
        default: break
        }
      } catch {
        throw .invalid(index: index, error)
      }
    }
  }

  /// Known fields only; deletion only where it is final; an entry names both its fields.
  public static func checkShape(_ change: SyncChange) throws(ValidationError) {
    if change.deleted {
      guard change.kind.deletionIsFinal else {
        throw ValidationError(
          field: "deleted", rule: "cannot delete a \(change.kind.rawValue); set its value to null instead")
      }
      guard change.fields.isEmpty else {
        throw ValidationError(field: "fields", rule: "must be left out of a deletion")
      }
      return
    }
    guard !change.fields.isEmpty else {
      throw ValidationError(field: "fields", rule: "must set at least one field")
    }
    let known = change.kind.fields
    // Sorted only when one is unknown, so the answer names the same one every time.
    if !change.fields.keys.allSatisfy(known.contains),
      let unknown = change.fields.keys.sorted().first(where: { !known.contains($0) })
    {
      throw ValidationError(
        field: "fields.\(unknown)",
        rule: "is not a field of a \(change.kind.rawValue) (fields: \(known.sorted().joined(separator: ", ")))")
    }
    let required = change.kind.requiredFields
    if change.kind.changesWhole, !required.allSatisfy(change.fields.keys.contains) {
      throw ValidationError(
        field: "fields",
        rule: "of a \(change.kind.rawValue) must name \(required.sorted().joined(separator: " and ")) together")
    }
    for (name, value) in change.fields { try checkWholeNumbers(value, path: "fields.\(name)") }
  }

  /// A number past Int64's ends reaches here as a `Double`, which may round onto the end
  /// itself (-9223372036854775809 becomes Int64.min): no field takes one, so it is refused by
  /// its path rather than stored as the nearest whole number.
  private static func checkWholeNumbers(_ value: SyncValue, path: String) throws(ValidationError) {
    switch value {
    case .double(let number) where abs(number) >= 0x1p63:
      throw ValidationError(field: path, rule: "is a number beyond 64 bits (\(number)); no field takes one")
    case .array(let items):
      for (index, item) in items.enumerated() { try checkWholeNumbers(item, path: "\(path)[\(index)]") }
    case .object(let fields):
      for (name, item) in fields { try checkWholeNumbers(item, path: "\(path).\(name)") }
    default:
      break
    }
  }

  private static func days(_ seconds: TimeInterval) -> String {
    let days = Int(seconds / 86_400)
    return days >= 2 ? "\(days) days" : "\(Int(seconds / 3_600)) hours"
  }
}
