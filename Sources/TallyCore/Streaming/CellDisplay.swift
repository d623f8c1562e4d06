/// What a month-view cell draws for its providers (SPEC 6).
public enum CellDisplay: Hashable, Sendable {
  /// No episode airs: the cell shows only its date.
  case none
  /// Episodes air, but only of shows with no provider in the country: a plain mark.
  case plain
  /// One provider with a logo: its logo, large and centred.
  case logo(Provider)
  /// Two or three providers and the primary has a logo: the primary's logo centred and one
  /// small dot along the bottom for each other provider.
  case logoWithDots(primary: Provider, dots: [Provider])
  /// More than three providers, or a primary without a logo: a dot for each of the first three
  /// providers and `+overflow` for the rest (`overflow` is 0 when nothing is left out).
  case dots([Provider], overflow: Int)

  /// The most dots a dots-only cell draws before summarising the rest as `+N`.
  public static let maximumDots = 3

  /// Chooses the display for providers already in ``Provider/displayOrder(_:_:)``.
  public init(orderedProviders providers: [Provider]) {
    guard let primary = providers.first else {
      self = .none
      return
    }
    switch (providers.count, primary.logoURL) {
    case (1, .some):
      self = .logo(primary)
    case (2...CellDisplay.maximumDots, .some):
      self = .logoWithDots(primary: primary, dots: Array(providers.dropFirst()))
    default:
      let shown = Array(providers.prefix(CellDisplay.maximumDots))
      self = .dots(shown, overflow: providers.count - shown.count)
    }
  }

  /// `"+N"` for a dots-only cell that leaves providers out, otherwise `nil`.
  public var overflowText: String? {
    guard case .dots(_, let overflow) = self, overflow > 0 else { return nil }
    return "+\(overflow)"
  }
}

extension CellDisplay: Codable {
  /// Coded flat with a `mode` of `none`, `plain`, `logo`, `logoWithDots` or `dots`, so a web client can
  /// switch on one string.
  private enum CodingKeys: String, CodingKey { case mode, logo, dots, overflow }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    switch try c.decode(String.self, forKey: .mode) {
    case "none":
      self = .none
    case "plain":
      self = .plain
    case "logo":
      self = .logo(try c.decode(Provider.self, forKey: .logo))
    case "logoWithDots":
      self = .logoWithDots(
        primary: try c.decode(Provider.self, forKey: .logo),
        dots: try c.decode([Provider].self, forKey: .dots))
    case "dots":
      self = .dots(
        try c.decode([Provider].self, forKey: .dots),
        overflow: try c.decode(Int.self, forKey: .overflow))
    case let other:
      throw DecodingError.dataCorruptedError(
        forKey: .mode, in: c,
        debugDescription: "'\(other)' is not a display mode; expected none, plain, logo, logoWithDots or dots")
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .none:
      try c.encode("none", forKey: .mode)
    case .plain:
      try c.encode("plain", forKey: .mode)
    case .logo(let provider):
      try c.encode("logo", forKey: .mode)
      try c.encode(provider, forKey: .logo)
    case .logoWithDots(let primary, let dots):
      try c.encode("logoWithDots", forKey: .mode)
      try c.encode(primary, forKey: .logo)
      try c.encode(dots, forKey: .dots)
    case .dots(let dots, let overflow):
      try c.encode("dots", forKey: .mode)
      try c.encode(dots, forKey: .dots)
      try c.encode(overflow, forKey: .overflow)
    }
  }
}
