/// The one rule journal entries and chat messages share: some visible text, not too much.
///
/// Text is kept exactly as written (a journal's blank lines and indentation are the writer's
/// choice); only the check ignores surrounding whitespace.
enum JournalText {
  static func validated(
    _ text: String, field: String, maxCharacters: Int
  ) throws(ValidationError) -> String {
    guard text.contains(where: { !$0.isWhitespace }) else {
      throw ValidationError(field: field, rule: "must contain some text, not only spaces or nothing", kind: .empty)
    }
    try NulFreeText.check(text, field: field)
    let count = text.count
    guard count <= maxCharacters else {
      throw ValidationError.tooLong(field, max: maxCharacters, length: count)
    }
    return text
  }
}
