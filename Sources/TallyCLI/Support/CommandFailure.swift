import Foundation
import TallyAccounts
import TallyCore
import TallyHTTP
import TallyStore
import TallyTMDB

/// Why a command stopped: one sentence for standard error, and the exit status.
///
/// Exit statuses (docs/cli.md): 0 done, 1 refused (what was asked breaks a rule or names
/// something that is not there; nothing changed), 64 the command line itself is wrong,
/// 74 a database or file could not be opened, read or written.
struct CommandFailure: Error, CustomStringConvertible {
  static let refused: Int32 = 1
  static let usage: Int32 = 64
  /// A service the command needs did not answer (sysexits' EX_UNAVAILABLE).
  static let unavailable: Int32 = 69
  static let inputOutput: Int32 = 74

  let message: String
  let exitCode: Int32

  init(_ message: String, exitCode: Int32 = CommandFailure.refused) {
    self.message = message
    self.exitCode = exitCode
  }

  var description: String { message }

  /// Any error a command lets escape, as a sentence and a status.
  init(_ error: any Error) {
    switch error {
    case let failure as CommandFailure:
      self = failure
    case let error as StoreError:
      switch error {
      case .notFound, .conflict, .invalid:
        self.init(error.description)
      case .newerSchema, .migrationFailed, .unreadable, .noDatabaseLocation, .corrupt, .storage:
        self.init(error.description, exitCode: CommandFailure.inputOutput)
      }
    case let error as TallyCore.ValidationError:
      self.init(Sentence.rule(error))
    case let error as AccountError:
      self.init(error.description)
    case let error as TMDBError:
      self.init(error.description)
    case let error as ShowSyncError:
      self.init(error.description)
    case let error as ProviderStartFailure:
      self.init(error.description, exitCode: CommandFailure.usage)
    default:
      self.init(
        "Something unexpected went wrong: \(String(describing: error)).",
        exitCode: CommandFailure.inputOutput)
    }
  }
}

/// How rule breaks read, the same in every command and in the store's errors.
enum Sentence {
  /// "The color must be a hex colour like …, not 'blue'."
  static func rule(_ error: TallyCore.ValidationError) -> String {
    let text = "The \(error.field) \(error.rule)"
    return text.hasSuffix(".") ? text : text + "."
  }

  /// A count with its noun: "1 day", "3 days".
  static func count(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
  }

  /// "a, b and c".
  static func list(_ items: [String]) -> String {
    switch items.count {
    case 0: return ""
    case 1: return items[0]
    default: return items.dropLast().joined(separator: ", ") + " and " + items.last!
    }
  }
}
