import Foundation
import TallyCore
import TallyHTTP

/// One date circle as SVG: the six layers of ``DateCircleStyle`` (SPEC 5), bottom to top,
/// centred on the cell's point. Written here rather than in a template: a grid has up to 84
/// circles of six layers, and the template engine's lookups were most of the page's time. Sizes are the style's diameters; colours become SVG paint
/// attributes, and the theme's text colours CSS classes, so light and dark themes both work
/// under a Content-Security-Policy that allows no inline styles.
struct DateCircleSVG: Sendable {
  struct Layer: Sendable {
    let radius: String
    /// Raw attributes, built here from the style's colours only.
    let paint: String
  }

  struct Number: Sendable {
    let text: String
    let size: String
    let paint: String
  }

  let day: String
  let label: String
  let selected: Bool
  /// Roving focus: the selected circle is the grid's one tab stop.
  let tabIndex: Int
  let x: String
  let y: String
  let hitArea: Layer
  let ring: Layer?
  let base: Layer
  let entryFill: Layer?
  let chatDot: Layer?
  let number: Number?

  init(_ cell: DateCell, at point: GridPoint) {
    let style = cell.style
    day = cell.day.description
    label = cell.accessibilityLabel
    selected = cell.isSelected
    tabIndex = cell.isSelected ? 0 : -1
    x = Self.number(point.x)
    y = Self.number(point.y)
    hitArea = Layer(radius: Self.number(style.hitArea.diameter / 2), paint: Self.fill(style.hitArea.color))
    // Drawn inside the hit area (the stroke's outer edge at the ring's diameter), so a ring
    // never overlaps the neighbouring circle at the smallest spacing.
    ring = style.ring.map {
      Layer(radius: Self.number(($0.diameter - $0.lineWidth) / 2), paint: Self.stroke($0.color, width: $0.lineWidth))
    }
    base = Layer(radius: Self.number(style.base.diameter / 2), paint: Self.fill(style.base.color))
    entryFill = style.entryFill.map { Layer(radius: Self.number($0.diameter / 2), paint: Self.fill($0.color)) }
    chatDot = style.chatDot.map { Layer(radius: Self.number($0.diameter / 2), paint: Self.fill($0.color)) }
    number = style.dayNumber.map {
      Number(text: String(cell.dayNumber), size: Self.number($0.fontSize), paint: Self.fill($0.color))
    }
  }

  /// Up to two decimals, without trailing zeros: the grid's spacing is fractional (9.8).
  static func number(_ value: Double) -> String {
    let rounded = (value * 100).rounded() / 100
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
  }

  static func fill(_ color: SemanticColor) -> String {
    paint(color, attribute: "fill")
  }

  static func stroke(_ color: SemanticColor, width: Double) -> String {
    #"fill="none" stroke-width="\#(number(width))" "# + paint(color, attribute: "stroke")
  }

  /// The platform grey is iOS's system grey; primary and secondary follow the page theme.
  private static func paint(_ color: SemanticColor, attribute: String) -> String {
    switch color {
    case .grey(let opacity): "\(attribute)=\"#8E8E93\" \(attribute)-opacity=\"\(number(opacity))\""
    case .white(let opacity): "\(attribute)=\"#FFFFFF\" \(attribute)-opacity=\"\(number(opacity))\""
    case .hex(let hex): #"\#(attribute)="\#(hex.css)""#
    case .primary: #"class="\#(attribute)-primary""#
    case .secondary: #"class="\#(attribute)-secondary""#
    }
  }

  /// The circle as an SVG link to its day inside its grid cell; every text is escaped, every
  /// number is ours. The cell holds the link rather than being it: a link keeps the role of
  /// a link (ARIA allows no `gridcell` on `<a href>`), and the selection belongs to the cell.
  var markup: String {
    func circle(_ layer: Layer) -> String { "<circle r=\"\(layer.radius)\" \(layer.paint)/>" }
    var svg = "<g role=\"gridcell\" aria-selected=\"\(selected)\">"
    svg += "<a class=\"dc\" href=\"/today?day=\(day)\" data-day=\"\(day)\""
    svg += " aria-label=\"\(HTMLText.escaped(label))\" tabindex=\"\(tabIndex)\""
    svg += " transform=\"translate(\(x) \(y))\">"
    svg += circle(hitArea)
    if let ring { svg += circle(ring) }
    svg += circle(base)
    // The entry and chat marks carry a class so the dark theme can repaint them: SPEC's
    // #333B40 is nearly invisible on the purple card (the light theme keeps the attribute).
    if let entryFill { svg += "<circle class=\"entry-mark\" r=\"\(entryFill.radius)\" \(entryFill.paint)/>" }
    // A shown number would hide the chat dot at the centre: the number moves up and the dot
    // down, both inside the base circle (the text's box ends above the dot's top).
    let shared = chatDot != nil && number != nil
    if let chatDot {
      svg += "<circle class=\"entry-mark\"\(shared ? " cy=\"5\"" : "") r=\"\(chatDot.radius)\" \(chatDot.paint)/>"
    }
    if let number {
      svg += "<text\(shared ? " y=\"-4\"" : "")\(entryFill != nil ? " class=\"on-entry\"" : "")"
      svg += " font-size=\"\(number.size)\" font-weight=\"500\" text-anchor=\"middle\" dy=\".35em\" "
      svg += "\(number.paint)>\(HTMLText.escaped(number.text))</text>"
    }
    return svg + "</a></g>"
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
