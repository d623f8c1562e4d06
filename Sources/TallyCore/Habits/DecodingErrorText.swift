/// A decoding failure as a person reads it: where in the document, and what was wrong there.
public enum DecodingErrorText {
  /// `habits[0].color`, or "the top level".
  public static func path(_ error: DecodingError) -> String {
    var text = ""
    for key in context(of: error)?.codingPath ?? [] {
      if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
    }
    if case .keyNotFound(let key, _) = error {
      text += (text.isEmpty ? "" : ".") + key.stringValue
    }
    return text.isEmpty ? "the top level" : text
  }

  /// "habits[0].habit.color: color must be a hex colour …", without a closing full stop.
  public static func describe(_ error: DecodingError) -> String {
    switch error {
    case .keyNotFound(let key, let context):
      let parent = DecodingErrorText.path(.dataCorrupted(context))
      return "\(parent) has no '\(key.stringValue)'"
    case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context):
      return "\(path(error)): \(trimmed(context.debugDescription))"
    @unknown default:
      return "\(error)"
    }
  }

  private static func context(of error: DecodingError) -> DecodingError.Context? {
    switch error {
    case .keyNotFound(_, let context), .dataCorrupted(let context), .typeMismatch(_, let context),
      .valueNotFound(_, let context):
      context
    @unknown default:
      nil
    }
  }

  /// The sentence ends with the caller's full stop, not the decoder's.
  private static func trimmed(_ text: String) -> String {
    text.hasSuffix(".") ? String(text.dropLast()) : text
  }
}
