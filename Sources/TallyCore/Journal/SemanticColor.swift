/// A colour named by meaning rather than by value, so each front end resolves it in its own
/// theme: SwiftUI's `.primary` adapts to dark mode, a web page maps it to a CSS variable.
public enum SemanticColor: Hashable, Sendable {
  /// The platform's neutral grey at an opacity from 0 to 1.
  case grey(opacity: Double)
  case white(opacity: Double)
  case hex(HexColor)
  /// The theme's main text colour.
  case primary
  /// The theme's muted text colour.
  case secondary
}

// Wire shape: {"kind": "grey", "opacity": 0.15}, {"kind": "hex", "hex": "#44C0FF"},
// {"kind": "primary"}: one flat object a script or a template can switch on.
extension SemanticColor: Codable {
  private enum CodingKeys: String, CodingKey { case kind, opacity, hex }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    switch try container.decode(String.self, forKey: .kind) {
    case "grey": self = .grey(opacity: try container.decode(Double.self, forKey: .opacity))
    case "white": self = .white(opacity: try container.decode(Double.self, forKey: .opacity))
    case "hex": self = .hex(try container.decode(HexColor.self, forKey: .hex))
    case "primary": self = .primary
    case "secondary": self = .secondary
    case let other:
      throw DecodingError.dataCorruptedError(
        forKey: .kind, in: container,
        debugDescription: "'\(other)' is not a colour kind; expected grey, white, hex, primary or secondary")
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .grey(let opacity):
      try container.encode("grey", forKey: .kind)
      try container.encode(opacity, forKey: .opacity)
    case .white(let opacity):
      try container.encode("white", forKey: .kind)
      try container.encode(opacity, forKey: .opacity)
    case .hex(let color):
      try container.encode("hex", forKey: .kind)
      try container.encode(color, forKey: .hex)
    case .primary:
      try container.encode("primary", forKey: .kind)
    case .secondary:
      try container.encode("secondary", forKey: .kind)
    }
  }
}
