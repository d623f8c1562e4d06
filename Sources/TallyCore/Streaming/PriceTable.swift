/// Monthly prices looked up by (country, provider): at most one price per pair.
///
/// Users edit the table (the shipped ``defaults`` are only a starting point), so it is a plain
/// value with set and remove operations rather than a constant.
public struct PriceTable: Hashable, Sendable {
  private struct Key: Hashable, Sendable {
    let country: String
    let providerID: Int
  }

  private var byKey: [Key: Price]

  public init() {
    byKey = [:]
  }

  /// Rejects a list that prices the same (country, provider) twice: which one was meant is a
  /// guess this table will not make.
  public init(_ prices: [Price]) throws(ValidationError) {
    byKey = [:]
    for price in prices {
      let key = Key(country: price.country, providerID: price.providerID)
      guard byKey[key] == nil else {
        throw ValidationError(
          field: "prices",
          rule: "must price provider \(price.providerID) in \(price.country) only once")
      }
      byKey[key] = price
    }
  }

  /// `country` may be in any case; `nil` when the pair is unpriced or the code is not a country.
  public func price(country: String, providerID: Int) -> Price? {
    guard let code = try? CountryCode.normalized(country) else { return nil }
    return byKey[Key(country: code, providerID: providerID)]
  }

  /// Adds the price, replacing any earlier price for its (country, provider).
  public mutating func set(_ price: Price) {
    byKey[Key(country: price.country, providerID: price.providerID)] = price
  }

  public mutating func removePrice(country: String, providerID: Int) {
    guard let code = try? CountryCode.normalized(country) else { return }
    byKey[Key(country: code, providerID: providerID)] = nil
  }

  /// Every price, ordered by country then provider id so output and files are stable.
  public var prices: [Price] {
    byKey.values.sorted { ($0.country, $0.providerID) < ($1.country, $1.providerID) }
  }

  public var isEmpty: Bool { byKey.isEmpty }
}

extension PriceTable: Codable {
  /// Coded as the bare list of prices.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    do {
      try self.init(container.decode([Price].self))
    } catch let error as ValidationError {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(prices)
  }
}
