import Foundation
import TallyCore

/// Why a store could not do what it was asked, in sentences a person reads.
///
/// Every implementation throws these, so callers (the CLI, the server) turn them into messages
/// and status codes without knowing which store they talk to.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The thing does not exist, or belongs to another user (the two look the same on purpose).
  case notFound(Thing)
  /// The write would break a uniqueness rule; the text names what collides.
  case conflict(String)
  /// A value broke one of Tally's rules.
  case invalid(ValidationError)
  /// The file was written by a newer Tally: `version` is its newest schema, `known` ours.
  case newerSchema(path: String, version: String, known: String)
  /// A migration failed; the file was left as it was, at schema `version`.
  case migrationFailed(path: String, version: String, target: String, reason: String)
  /// The file could not be opened as a Tally database.
  case unreadable(path: String, reason: String)
  /// Neither `TALLY_DB`, `XDG_DATA_HOME` nor `HOME` says where the database lives.
  case noDatabaseLocation
  /// A stored row breaks a rule it was written under: the file was changed by hand or is damaged.
  case corrupt(String)
  /// The storage engine failed (disk full, locked for too long, I/O error).
  case storage(String)

  /// Something a store holds, named the way an error message needs it.
  public enum Thing: Equatable, Sendable, CustomStringConvertible {
    case user(UUID)
    case userNamed(String)
    case habit(UUID)
    case show(UUID)
    case chatMessage(UUID)
    case apiToken(UUID)
    case session(UUID)
    case reminderDelivery(String)
    case pushSubscription(UUID)
    case pause(UUID)
    case invitation

    public var description: String {
      switch self {
      case .user(let id): "no user with id \(id.storeText)"
      case .userNamed(let name): "no user named '\(name)'"
      case .habit(let id): "no habit with id \(id.storeText)"
      case .show(let id): "no show with id \(id.storeText)"
      case .chatMessage(let id): "no chat message with id \(id.storeText)"
      case .apiToken(let id): "no API token with id \(id.storeText)"
      case .session(let id): "no session with id \(id.storeText)"
      case .reminderDelivery(let key): "no reminder delivery \(key)"
      case .pushSubscription(let id): "no push subscription with id \(id.storeText)"
      case .pause(let id): "no pause with id \(id.storeText)"
      case .invitation: "no invitation for this link: it has been used or has expired"
      }
    }
  }

  public var description: String {
    switch self {
    case .notFound(let thing):
      let text = thing.description
      return "There is " + text + "."
    case .conflict(let what):
      return what.prefix(1).uppercased() + what.dropFirst() + "."
    case .invalid(let error):
      return "The \(error.field) \(error.rule)."
    case .newerSchema(let path, let version, let known):
      return
        "The database \(path) has schema \(version), written by a newer Tally; this one knows "
        + "schemas up to \(known). It was left untouched: use a newer Tally to open it."
    case .migrationFailed(let path, let version, let target, let reason):
      return
        "The database \(path) (schema \(version)) could not be migrated to schema \(target): "
        + "\(reason). It was left untouched at schema \(version)."
    case .unreadable(let path, let reason):
      return "The database \(path) could not be opened: \(reason). It was left untouched."
    case .noDatabaseLocation:
      return
        "There is no place for the database: set TALLY_DB to a file path, or set HOME "
        + "or XDG_DATA_HOME."
    case .corrupt(let what):
      return "The database holds a damaged row: \(what)."
    case .storage(let what):
      return "The database could not be read or written: \(what)."
    }
  }
}

extension StoreError {
  /// Runs `body`, turning a broken rule into ``StoreError/invalid(_:)``.
  public static func validating<T>(_ body: () throws(ValidationError) -> T) throws(StoreError) -> T {
    do {
      return try body()
    } catch {
      throw .invalid(error)
    }
  }
}

extension UUID {
  /// The form ids are stored and printed in: lower-case with dashes.
  public var storeText: String { uuidString.lowercased() }
}
