import Foundation
import TallyCore
import TallyStore

/// The parts of an entity id, read by kind; refuses an id that is not of its kind's form.
public enum SyncID: Hashable, Sendable {
  case settings
  case habit(UUID)
  case show(UUID)
  case chat(UUID)
  case price(country: String, providerID: Int)
  case journal(Day)
  case entry(habit: UUID, day: Day)
  case episode(show: UUID, season: Int, number: Int)
  case pause(UUID)

  public static let settingsID = "settings"

  public static func entry(_ habit: UUID, _ day: Day) -> String { entry(habit.storeText, day) }
  /// For many days of one habit, its id's text made once.
  public static func entry(_ habitText: String, _ day: Day) -> String { "\(habitText)/\(day)" }
  public static func episode(_ show: UUID, _ season: Int, _ number: Int) -> String {
    "\(show.storeText)/\(season)/\(number)"
  }
  public static func price(_ country: String, _ providerID: Int) -> String { "\(country)/\(providerID)" }

  /// An id split at its first slash: an entry's habit and day, an episode's show and the
  /// rest; `nil` for an id without one. Split as bytes, for the ids of a first pull.
  public static func split(_ id: String) -> (head: Substring, rest: Substring)? {
    guard let slash = id.utf8.firstIndex(of: UInt8(ascii: "/")) else { return nil }
    return (id[..<slash], id[id.index(after: slash)...])
  }

  public init(_ key: SyncKey) throws(ValidationError) {
    guard let parsed = key.kind == .entry ? Self.entry(key.id) : Self.parse(key) else {
      throw ValidationError(field: "change id", rule: "'\(key.id)' is not the id of a \(key.kind.rawValue) (\(Self.form(key.kind)))")
    }
    self = parsed
  }

  /// An entry's id read in place: a first pull reads one per change.
  private static func entry(_ id: String) -> SyncID? {
    var id = id
    return id.withUTF8 { bytes in
      guard bytes.count == 47, bytes[36] == UInt8(ascii: "/"),
        let habit = LowerCaseUUID.read(UnsafeBufferPointer(rebasing: bytes[..<36])),
        let day = Day(utf8: UnsafeBufferPointer(rebasing: bytes[37...]))
      else { return nil }
      return .entry(habit: habit, day: day)
    }
  }

  private static func parse(_ key: SyncKey) -> SyncID? {
    // Split as bytes: splitting characters costs more than the rest of a merge of an entry.
    let parts = key.id.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
      .map { String(Substring($0)) }
    func uuid(_ text: String) -> UUID? { LowerCaseUUID.read(text) }
    func count(_ text: String) -> Int? {
      text.count <= 9 && text.allSatisfy { $0.isASCII && $0.isNumber } ? Int(text) : nil
    }
    return switch (key.kind, parts.count) {
    case (.settings, 1): key.id == Self.settingsID ? .settings : nil
    case (.habit, 1): uuid(parts[0]).map(SyncID.habit)
    case (.show, 1): uuid(parts[0]).map(SyncID.show)
    case (.chat, 1): uuid(parts[0]).map(SyncID.chat)
    case (.pause, 1): uuid(parts[0]).map(SyncID.pause)
    case (.journal, 1): Day(parts[0]).map(SyncID.journal)
    case (.episode, 3):
      uuid(parts[0]).flatMap { show in
        count(parts[1]).flatMap { season in
          count(parts[2]).map { .episode(show: show, season: season, number: $0) }
        }
      }
    case (.price, 2):
      (try? CountryCode.normalized(parts[0])).flatMap { country in
        country == parts[0] ? count(parts[1]).map { .price(country: country, providerID: $0) } : nil
      }
    default: nil
    }
  }

  static func form(_ kind: SyncKind) -> String {
    switch kind {
    case .settings: "always 'settings'"
    case .habit, .show, .chat, .pause: "a lower-case UUID"
    case .journal: "a day, YYYY-MM-DD"
    case .entry: "habit UUID/YYYY-MM-DD"
    case .episode: "show UUID/season/number"
    case .price: "COUNTRY/provider id, like US/8"
    }
  }
}
