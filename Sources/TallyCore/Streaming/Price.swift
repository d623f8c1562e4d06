import Foundation

/// What one provider costs a month in one country.
public struct Price: Hashable, Sendable {
  /// Upper-case ISO 3166 alpha-2 code.
  public let country: String
  public let providerID: Int
  /// Kept as `Decimal` so sums of prices are exact cents, never binary-float approximations.
  public let amount: Decimal
  /// Upper-case ISO 4217 code.
  public let currency: String

  public init(country: String, providerID: Int, amount: Decimal, currency: String)
    throws(ValidationError)
  {
    let country = try CountryCode.normalized(country, field: "price.country")
    guard providerID > 0 else {
      throw ValidationError(
        field: "price.providerID", rule: "must be a positive TMDB provider id, not \(providerID)")
    }
    guard !amount.isNaN, amount >= 0 else {
      throw ValidationError(field: "price.amount", rule: "must be a number of 0 or more, not \(amount)", kind: .negative)
    }
    self.country = country
    self.providerID = providerID
    self.amount = amount
    self.currency = try CurrencyCode.normalized(currency, field: "price.currency")
  }
}

extension Price: Codable {
  private enum CodingKeys: String, CodingKey { case country, providerID, amount, currency }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    do {
      try self.init(
        country: c.decode(String.self, forKey: .country),
        providerID: c.decode(Int.self, forKey: .providerID),
        amount: c.decode(Decimal.self, forKey: .amount),
        currency: c.decode(String.self, forKey: .currency))
    } catch let error as ValidationError {
      throw DecodingError.dataCorrupted(
        .init(codingPath: c.codingPath, debugDescription: error.description))
    }
  }
}
