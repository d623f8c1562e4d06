/// Text Tally keeps must not hold the NUL character (U+0000): SQLite's C interface reads text
/// up to the first NUL, so anything after it would come back silently cut off.
public enum NulFreeText {
  public static func check(_ text: String, field: String) throws(ValidationError) {
    guard !text.unicodeScalars.contains("\u{0}") else {
      throw ValidationError(field: field, rule: "must not contain the NUL character (U+0000)")
    }
  }
}
