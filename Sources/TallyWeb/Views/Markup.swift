import Foundation
import Mustache
import TallyLocalization

/// Markup the pages build in Swift (cards, rows, grid cells) where a template's lookups
/// would cost too much. Escaping cannot be forgotten: the markup itself comes only from
/// string literals in the source (a `StaticString`, never a variable), from other `Markup`,
/// or from a template's output; every `String` put into it is escaped, in text and in a
/// quoted attribute alike. Templates draw it with `{{{…}}}`.
///
///     let heading: Markup = #"<h3 title="\#(habit.name)">\#(habit.name)</h3>"#
struct Markup: Sendable, Equatable, ExpressibleByStringInterpolation, MustacheCustomRenderable {
  /// The markup as the page holds it.
  private(set) var html: String

  fileprivate init(html: String) { self.html = html }

  init(stringLiteral literal: StaticString) {
    html = literal.description
  }

  init(stringInterpolation: Interpolation) {
    html = stringInterpolation.html
  }

  static let empty: Markup = ""

  var isEmpty: Bool { html.isEmpty }

  var renderText: String { html }
  var isNull: Bool { false }

  static func + (lhs: Markup, rhs: Markup) -> Markup { Markup(html: lhs.html + rhs.html) }

  static func += (lhs: inout Markup, rhs: Markup) { lhs.html += rhs.html }

  /// The markup cut where `placeholder` stands, for a value to be joined in its place.
  func split(at placeholder: String) -> [Markup] {
    html.components(separatedBy: placeholder).map(Markup.init(html:))
  }

  /// `markup` `count` times over.
  static func repeating(_ markup: Markup, count: Int) -> Markup {
    Markup(html: String(repeating: markup.html, count: count))
  }

  struct Interpolation: StringInterpolationProtocol {
    fileprivate var html = ""

    init(literalCapacity: Int, interpolationCount: Int) {
      html.reserveCapacity(literalCapacity + 16 * interpolationCount)
    }

    mutating func appendLiteral(_ literal: StaticString) {
      html += literal.description
    }

    /// Any text, the user's or ours: escaped.
    mutating func appendInterpolation(_ text: String) {
      html += HTMLText.escaped(text)
    }

    mutating func appendInterpolation(_ markup: Markup) {
      html += markup.html
    }

    mutating func appendInterpolation(_ number: Int) {
      html += String(number)
    }

    mutating func appendInterpolation(_ flag: Bool) {
      html += flag ? "true" : "false"
    }
  }
}

extension Sequence<Markup> {
  func joined(separator: Markup = .empty) -> Markup {
    var whole = Markup.empty
    for (index, part) in enumerated() {
      if index > 0 { whole += separator }
      whole += part
    }
    return whole
  }
}

extension Templates {
  /// The template's output as markup: every `{{value}}` it draws is escaped.
  func markup(_ context: Any, _ name: String, words: Translator = PageSpeech.english.translator) -> Markup {
    Markup(html: render(context, name, words: words))
  }
}

/// Text made safe inside HTML or SVG, in an element or a quoted attribute. Byte by byte: the
/// five characters are ASCII, which never occurs inside another character's UTF-8, and most
/// texts (labels, names) hold none of them and come back as they are.
enum HTMLText {
  static func escaped(_ text: String) -> String {
    guard text.utf8.contains(where: { entity(for: $0) != nil }) else { return text }
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count + 16)
    for byte in text.utf8 {
      if let entity = entity(for: byte) { out += entity.utf8 } else { out.append(byte) }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// What stands for `byte` in HTML; `nil` for a byte that stands for itself.
  private static func entity(for byte: UInt8) -> String? {
    switch byte {
    case UInt8(ascii: "&"): "&amp;"
    case UInt8(ascii: "<"): "&lt;"
    case UInt8(ascii: ">"): "&gt;"
    case UInt8(ascii: "\""): "&quot;"
    case UInt8(ascii: "'"): "&#39;"
    default: nil
    }
  }
}
