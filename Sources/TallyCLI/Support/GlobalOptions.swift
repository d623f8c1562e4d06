import ArgumentParser
import Foundation
import TallyCore
import TallySQLite
import TallyStore

/// The options every command takes: which database, which user, and what time it is.
struct GlobalOptions: ParsableArguments {
  @Option(
    name: .long,
    help: ArgumentHelp(
      "The database file.",
      discussion: "Default: $TALLY_DB, else $XDG_DATA_HOME/tally/tally.sqlite, else "
        + "~/.local/share/tally/tally.sqlite. Created on first use.",
      valueName: "path"))
  var db: String?

  @Flag(help: "Make the --db file a new database when it exists but is empty (refused otherwise).")
  var adoptEmptyDb = false

  @Option(
    name: .long,
    help: ArgumentHelp(
      "The user whose data to use.",
      discussion: "Default: the database's one user, created on first use.",
      valueName: "name"))
  var user: String?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Act as if it were this instant (RFC 3339, e.g. 2026-03-08T09:30:00+01:00).",
      discussion: "Default: $TALLY_NOW, else the clock. Today is the day holding it in your "
        + "time zone, after your day-switch hour.",
      valueName: "instant"))
  var now: String?

  func validate() throws {
    if let now, InstantFormat.date(now) == nil {
      throw UsageError(Clock.badInstant(now, source: "--now"))
    }
    if let user, !User.nameLengths.contains(user.trimmingCharacters(in: .whitespacesAndNewlines).count) {
      throw UsageError("The --user name must be 1 to 64 characters, not '\(user)'.")
    }
  }
}

enum Clock {
  static func badInstant(_ text: String, source: String) -> String {
    "The \(source) value must be an instant in RFC 3339 like 2026-03-08T09:30:00Z, not '\(text)'."
  }
}
