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
    /// Paint attributes, built here from the style's colours only.
    let paint: Markup
  }

  struct Number: Sendable {
    let text: String
    let size: String
    let paint: Markup
  }

  let day: String
  let label: String
  /// The day's name, which the Today heading shows while a finger drags over the circle.
  let name: String
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

  init(_ cell: DateCell, at point: GridPoint, label: String, name: String) {
    let style = cell.style
    day = cell.day.description
    self.label = label
    self.name = name
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

  static func fill(_ color: SemanticColor) -> Markup {
    paint(color, attribute: .fill)
  }

  static func stroke(_ color: SemanticColor, width: Double) -> Markup {
    #"fill="none" stroke-width="\#(number(width))" "# + paint(color, attribute: .stroke)
  }

  /// The platform grey is iOS's system grey; primary and secondary follow the page theme.
  private static func paint(_ color: SemanticColor, attribute: PaintAttribute) -> Markup {
    switch (color, attribute) {
    case (.grey(let opacity), .fill): ##"fill="#8E8E93" fill-opacity="\##(number(opacity))""##
    case (.grey(let opacity), .stroke): ##"stroke="#8E8E93" stroke-opacity="\##(number(opacity))""##
    case (.white(let opacity), .fill): ##"fill="#FFFFFF" fill-opacity="\##(number(opacity))""##
    case (.white(let opacity), .stroke): ##"stroke="#FFFFFF" stroke-opacity="\##(number(opacity))""##
    case (.hex(let hex), .fill): #"fill="\#(hex.css)""#
    case (.hex(let hex), .stroke): #"stroke="\#(hex.css)""#
    case (.primary, .fill): #"class="fill-primary""#
    case (.primary, .stroke): #"class="stroke-primary""#
    case (.secondary, .fill): #"class="fill-secondary""#
    case (.secondary, .stroke): #"class="stroke-secondary""#
    }
  }

  /// Attribute names are markup, so the two a colour paints are spelt out rather than joined in.
  private enum PaintAttribute { case fill, stroke }

  /// The circle as an SVG link to its day inside its grid cell; every text is escaped, every
  /// number is ours. The cell holds the link rather than being it: a link keeps the role of
  /// a link (ARIA allows no `gridcell` on `<a href>`), and the selection belongs to the cell.
  var markup: Markup {
    func circle(_ layer: Layer) -> Markup { "<circle r=\"\(layer.radius)\" \(layer.paint)/>" }
    var svg: Markup = "<g role=\"gridcell\" aria-selected=\"\(selected)\">"
    svg += "<a class=\"dc\" href=\"/today?day=\(day)\" data-day=\"\(day)\""
    svg += " aria-label=\"\(label)\" data-name=\"\(name)\" tabindex=\"\(tabIndex)\""
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
      svg += "<circle class=\"entry-mark\"\(shared ? Markup(" cy=\"5\"") : .empty) r=\"\(chatDot.radius)\" \(chatDot.paint)/>"
    }
    if let number {
      svg += "<text\(shared ? Markup(" y=\"-4\"") : .empty)\(entryFill != nil ? Markup(" class=\"on-entry\"") : .empty)"
      svg += " font-size=\"\(number.size)\" font-weight=\"500\" text-anchor=\"middle\" dy=\".35em\" "
      svg += "\(number.paint)>\(number.text)</text>"
    }
    return svg + "</a></g>"
  }
}
