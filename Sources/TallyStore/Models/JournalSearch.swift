import Foundation
import TallyCore

/// What a journal search matches, shared by every store so they agree: the words as typed,
/// trimmed, found anywhere in an entry ignoring case and diacritics ("cafe" finds "Café").
public enum JournalSearch {
  /// The query a store searches for; nil when it is blank.
  public static func query(_ text: String) -> String? {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    return trimmed.isEmpty ? nil : trimmed
  }

  public static func matches(_ entry: JournalEntry, _ query: String) -> Bool {
    entry.text.range(of: query, options: [.caseInsensitive, .diacriticInsensitive]) != nil
  }
}
