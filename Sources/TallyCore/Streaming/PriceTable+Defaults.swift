import Foundation

extension PriceTable {
  /// The table a new user starts with: typical 2025 monthly prices of each service's standard
  /// ad-free plan (Prime Video: the standalone subscription) in US, AU, GB, CA and DE, keyed by
  /// TMDB provider id. Prices drift, so users edit this table; it is never the source of truth.
  ///
  /// Amazon Prime Video appears under both TMDB ids it is listed with (9 and 119).
  public static let defaults: PriceTable = {
    let markets: [(country: String, currency: String, cents: [Int: Int])] = [
      ("US", "USD", [
        8: 1799, 9: 899, 337: 1899, 1899: 1849, 15: 1899, 350: 1299, 531: 1299, 386: 1099,
      ]),
      ("AU", "AUD", [
        8: 1899, 9: 999, 119: 999, 337: 1799, 1899: 1599, 350: 1299, 531: 1399, 21: 1700,
        385: 1900,
      ]),
      ("GB", "GBP", [8: 1299, 9: 599, 119: 599, 337: 899, 350: 999, 531: 799, 39: 999]),
      ("CA", "CAD", [8: 1899, 9: 999, 119: 999, 337: 1499, 350: 1299, 531: 1399, 230: 2200]),
      ("DE", "EUR", [8: 1399, 9: 899, 119: 899, 337: 999, 350: 999, 531: 799, 30: 998]),
    ]
    var table = PriceTable()
    for market in markets {
      for (providerID, cents) in market.cents {
        let amount = Decimal(sign: .plus, exponent: -2, significand: Decimal(cents))
        // The literals above are valid by construction; a failure here is a typo in this file.
        table.set(try! Price(
          country: market.country, providerID: providerID, amount: amount,
          currency: market.currency))
      }
    }
    return table
  }()
}
