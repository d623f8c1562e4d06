import Foundation
import TallyCore

/// What a change is about, and the fields a change of that kind may carry (SPEC 11).
///
/// Ids: a habit, chat message or show is its UUID; an entry is `<habit>/<day>`; a journal
/// entry is its day; an episode is `<show>/<season>/<number>`; a price is `<country>/<provider>`;
/// a pause is its UUID; the settings are `settings`. Fields mirror the JSON the API sends for that kind.
public enum SyncKind: String, Codable, Sendable, CaseIterable, Comparable {
  case settings, habit, show, price, journal, chat, entry, episode, pause

  /// Each kind's set is built once: merging asks for it per change.
  public var fields: Set<String> { Self.fieldSets[self]! }

  private static let fieldSets: [SyncKind: Set<String>] = [
    .settings: [
      "timeZone", "daySwitchHour", "firstWeekday", "locale", "showDatePickerGrid", "showGridDates", "language",
    ],
    .habit: [
      "name", "icon", "color", "group", "createdDay", "frequency", "reminder", "archived", "sortOrder", "measure",
      "description",
    ],
    .show: ["title", "status", "tmdbID", "providers"],
    .price: ["amount", "currency"],
    .journal: ["text"],
    .chat: ["day", "role", "text", "sentAt"],
    .entry: ["status", "note", "amount"],
    .episode: ["title", "airDay"],
    .pause: ["habitId", "from", "until"],
  ]

  /// Fields added after sync first shipped (issue 15): a change from an older client may
  /// leave them out, and an entity without them is still whole (they read as null).
  public var optionalFields: Set<String> { Self.optionalFieldSets[self] ?? [] }

  /// The fields an entity needs before it can be materialised, and a whole change must name.
  public var requiredFields: Set<String> { Self.requiredFieldSets[self]! }

  /// Built once too: a first pull checks 150,000 entries against it.
  private static let requiredFieldSets = Dictionary(
    uniqueKeysWithValues: allCases.map { kind in (kind, kind.fields.subtracting(kind.optionalFields)) })

  private static let optionalFieldSets: [SyncKind: Set<String>] = [
    // Added with the languages (issue 56); null is "as the browser asks".
    .settings: ["language"],
    .habit: ["measure", "description"],
    .entry: ["amount"],
    // A pause of all habits has no habit, and an open one no end.
    .pause: ["habitId", "until"],
  ]

  /// Fields that change together as one value: an entry is one register (SPEC 11 "per
  /// (habit, day)"), and a price is an amount in a currency, so a change names every field.
  public var changesWhole: Bool { self == .entry || self == .price }

  /// Deletion is final for these: the entity stays deleted, and later changes to it are
  /// dropped. The other kinds are removed by a value (`status: null`, `text: null`,
  /// `amount: null`) that a later change may replace.
  public var deletionIsFinal: Bool { self == .habit || self == .show || self == .chat || self == .pause }

  /// The kind whose entity must exist for this one to: an entry's habit, an episode's show.
  public var parent: SyncKind? {
    switch self {
    case .entry: .habit
    case .episode: .show
    default: nil
    }
  }

  /// Applied in this order within a batch, so a parent lands before its children.
  public static func < (a: SyncKind, b: SyncKind) -> Bool { a.order < b.order }

  /// The order of the cases: a merge compares kinds per change, and `allCases` is an array.
  private var order: Int {
    switch self {
    case .settings: 0
    case .habit: 1
    case .show: 2
    case .price: 3
    case .journal: 4
    case .chat: 5
    case .entry: 6
    case .episode: 7
    // After habits, so a pause of a habit that arrives in the same batch finds it.
    case .pause: 8
    }
  }

  /// Whether some kind's entities belong to this one's (a habit's entries, a show's episodes).
  public var hasChildren: Bool { Self.parents.contains(self) }

  private static let parents = Set(allCases.compactMap(\.parent))
}
