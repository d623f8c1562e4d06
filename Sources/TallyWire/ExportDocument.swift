import Foundation
import TallyCore
import TallyStore

/// Everything one user has, as `tally export` writes it and `tally import` reads it back:
/// full fidelity, so export → import into an empty database → export gives the same bytes.
///
/// Left out on purpose: API tokens and sessions (secrets, and only valid where they were
/// made) and reminder delivery records (bookkeeping of one server).
public struct ExportDocument: Codable, Sendable {
  public static let formatName = "tally-export"
  public static let currentVersion = 1

  public var format: String
  public var version: Int
  public var user: UserJSON
  public var habits: [HabitWithEntries]
  public var journal: [JournalEntry]
  public var chat: [ChatJSON]
  public var shows: [ShowJSON]
  public var episodes: [EpisodeJSON]
  public var prices: [Price]
  /// Absent from files written before pauses existed, which read as having none.
  public var pauses: [Pause]?

  public struct UserJSON: Codable, Sendable {
    public var id: String
    public var name: String
    public var settings: UserSettings
  }

  public struct HabitWithEntries: Codable, Sendable {
    public var habit: HabitJSON
    /// By day; `note` is absent when the day has none.
    public var entries: [HabitEntry]
  }
}

// MARK: - From and to a store's snapshot

extension ExportDocument {
  /// The document of `user`, whose data is `snapshot`, in the store's orders.
  public init(user: User, snapshot: UserSnapshot) {
    self.init(
      format: ExportDocument.formatName, version: ExportDocument.currentVersion,
      user: UserJSON(id: user.id.storeText, name: user.name, settings: snapshot.settings),
      habits: snapshot.habits.map { HabitWithEntries(habit: HabitJSON($0.habit), entries: $0.entries) },
      journal: snapshot.journal,
      chat: snapshot.chat.map(ChatJSON.init),
      shows: snapshot.shows.map(ShowJSON.init),
      episodes: snapshot.episodes.map(EpisodeJSON.init),
      prices: snapshot.prices,
      pauses: snapshot.pauses)
  }

  /// The exported user and their data as the engine's values, with every rule checked that
  /// needs no database (``UserSnapshot/checked()``), so a file that breaks one is refused
  /// before a database is opened.
  public func restorable() throws -> (user: User, snapshot: UserSnapshot) {
    guard format == ExportDocument.formatName else {
      throw ValidationError(field: "format", rule: "must be '\(ExportDocument.formatName)', not '\(format)'")
    }
    guard version <= ExportDocument.currentVersion else {
      throw ValidationError(
        field: "version",
        rule: "is \(version), written by a newer Tally; this one reads version \(ExportDocument.currentVersion)")
    }
    let exported = try User(
      id: try WireID.uuid(user.id, field: "user id"), name: user.name, settings: user.settings)
    let snapshot = UserSnapshot(
      settings: user.settings,
      habits: try habits.map { item in
        UserSnapshot.HabitWithEntries(habit: try item.habit.habit(), entries: item.entries)
      },
      journal: journal,
      chat: try chat.map { try $0.message() },
      shows: try shows.map { try $0.show() },
      episodes: try episodes.map { try $0.episode() },
      prices: prices,
      pauses: pauses ?? [])
    return (exported, try snapshot.checked())
  }
}
