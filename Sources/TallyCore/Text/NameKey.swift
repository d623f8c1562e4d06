import Foundation

/// When two names are the same name: habit names and show titles compare by this key, so
/// "Read", " read" and "READ" are one habit, and "Café" typed precomposed or decomposed is
/// one show. The database stores the key beside each habit name and keeps it unique per user.
public enum NameKey {
  /// Trimmed of white space, Unicode canonical composition (NFC), then lower case.
  /// Public and pure so every rule that decides "same name" (stores, CLI look-ups, sync's
  /// renames) agrees to the character. Changing it needs a migration that recomputes the
  /// stored keys (docs/storage.md).
  public static func comparisonKey(_ name: String) -> String {
    name.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping.lowercased()
  }

  /// Whether `a` and `b` name the same thing.
  public static func same(_ a: String, _ b: String) -> Bool {
    comparisonKey(a) == comparisonKey(b)
  }
}
