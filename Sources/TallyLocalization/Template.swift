import Foundation

/// One catalog string, split once when the file is read into literal text and `{{name}}`
/// placeholders (i18next's default delimiters), so filling it in is a walk over its parts.
public struct Template: Sendable, Equatable {
  public enum Part: Sendable, Equatable {
    case text(String)
    case placeholder(String)
  }

  /// The string as the file has it.
  public let source: String
  public let parts: [Part]

  public init(_ source: String) {
    self.source = source
    self.parts = Self.split(source)
  }

  /// The names of its placeholders, for the parity check.
  public var placeholders: Set<String> {
    Set(parts.compactMap { if case .placeholder(let name) = $0 { name } else { nil } })
  }

  /// The text with each `{{name}}` replaced by `values[name]` as plain text (escaping is the
  /// page's job). A name without a value stays as `{{name}}`, so a forgotten value shows.
  public func filled(with values: [String: String]) -> String {
    filled { values[$0] }
  }

  /// The text with each `{{name}}` replaced by `value(name)`, or kept when that is nil.
  public func filled(_ value: (String) -> String?) -> String {
    var result = ""
    result.reserveCapacity(source.utf8.count)
    for part in parts {
      switch part {
      case .text(let text): result += text
      case .placeholder(let name): result += value(name) ?? "{{\(name)}}"
      }
    }
    return result
  }

  /// Splits at `{{` … `}}`; whitespace inside the braces is trimmed as i18next does. An
  /// unclosed `{{` or an empty name is literal text.
  private static func split(_ source: String) -> [Part] {
    var parts: [Part] = []
    var rest = source[...]
    var literal = ""
    while let open = rest.range(of: "{{") {
      guard let close = rest[open.upperBound...].range(of: "}}") else { break }
      let name = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
      literal += rest[..<open.lowerBound]
      if name.isEmpty || name.contains("{") {
        literal += rest[open.lowerBound..<close.upperBound]
      } else {
        if !literal.isEmpty { parts.append(.text(literal)) }
        literal = ""
        parts.append(.placeholder(name))
      }
      rest = rest[close.upperBound...]
    }
    literal += rest
    if !literal.isEmpty { parts.append(.text(literal)) }
    return parts
  }
}
