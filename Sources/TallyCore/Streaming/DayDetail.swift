import Foundation

/// The list a tapped day opens (SPEC 6): one row per provider with its monthly price, and a
/// total over the priced rows.
public struct DayDetail: Hashable, Sendable, Encodable {
  public struct Row: Hashable, Sendable, Encodable {
    public let provider: Provider
    /// `nil` when the price table has no price for this provider in the country.
    public let price: Price?
    /// The formatted price, or "—" when unpriced.
    public let priceText: String
    public let accessibilityLabel: String
  }

  /// The sum of one currency's prices.
  public struct Total: Hashable, Sendable, Encodable {
    public let currency: String
    public let amount: Decimal
    public let text: String
  }

  public static let unpricedText = "—"

  public let day: Day
  /// In the day cell's order, primary first.
  public let rows: [Row]
  /// The titles of shows airing this day with no provider in the country, which no price
  /// covers.
  public let showsWithoutProvider: [String]
  /// One total per currency, in the order the currencies first appear in ``rows``. A country's
  /// prices normally share one currency, but the table is user-edited and adding dollars to
  /// euros would be wrong.
  public let totals: [Total]
  /// `TOTAL: $35.98`; several currencies are joined with " + "; "TOTAL: —" when no row is
  /// priced.
  public let totalText: String
  /// How many rows the total leaves out for lack of a price.
  public let unpricedCount: Int

  public var hasUnpricedRows: Bool { unpricedCount > 0 }

  /// `nil` for a day when nothing airs: such a day opens nothing.
  init?(
    day: Day, providers: [Provider], showsWithoutProvider: [String] = [], country: String, prices: PriceTable,
    today: Day, calendar: DayCalendar
  ) {
    guard !providers.isEmpty || !showsWithoutProvider.isEmpty else { return nil }
    self.showsWithoutProvider = showsWithoutProvider
    var sums: [(currency: String, amount: Decimal)] = []
    rows = providers.map { provider in
      let price = prices.price(country: country, providerID: provider.id)
      let formatted = price.map {
        MoneyFormat.string($0.amount, currency: $0.currency, country: country)
      }
      if let price {
        if let index = sums.firstIndex(where: { $0.currency == price.currency }) {
          sums[index].amount += price.amount
        } else {
          sums.append((price.currency, price.amount))
        }
      }
      return Row(
        provider: provider, price: price, priceText: formatted ?? DayDetail.unpricedText,
        accessibilityLabel: StreamingAccessibility.detailRowLabel(
          provider: provider, formattedPrice: formatted, day: day, today: today,
          calendar: calendar))
    }
    totals = sums.map {
      Total(
        currency: $0.currency, amount: $0.amount,
        text: MoneyFormat.string($0.amount, currency: $0.currency, country: country))
    }
    let sumText = totals.isEmpty ? DayDetail.unpricedText : totals.map(\.text).joined(separator: " + ")
    totalText = "TOTAL: \(sumText)"
    unpricedCount = rows.filter { $0.price == nil }.count
    self.day = day
  }
}
