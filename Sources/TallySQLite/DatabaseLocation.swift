import Foundation
import TallyStore

/// Where Tally keeps its database when no `--db` is given (SPEC 10).
public enum DatabaseLocation {
  /// `$TALLY_DB`, else `$XDG_DATA_HOME/tally/tally.sqlite`, else
  /// `$HOME/.local/share/tally/tally.sqlite`. Empty variables count as unset, and a relative
  /// `XDG_DATA_HOME` is ignored, as the XDG base-directory spec asks. Pure: it reads only
  /// `environment`; ``AppDatabase/open(at:)`` creates the folder.
  public static func defaultPath(environment: [String: String]) throws(StoreError) -> String {
    func value(_ name: String) -> String? {
      guard let text = environment[name], !text.isEmpty else { return nil }
      return text
    }
    if let path = value("TALLY_DB") {
      return path
    }
    if let data = value("XDG_DATA_HOME"), data.hasPrefix("/") {
      return joined(data, "tally/tally.sqlite")
    }
    if let home = value("HOME") {
      return joined(home, ".local/share/tally/tally.sqlite")
    }
    throw .noDatabaseLocation
  }

  private static func joined(_ folder: String, _ rest: String) -> String {
    folder.hasSuffix("/") ? folder + rest : folder + "/" + rest
  }
}
