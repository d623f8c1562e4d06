import Foundation

/// Money as text, the same on every machine (SPEC 6).
///
/// Foundation's currency formatters follow the machine's locale data, which differs between
/// macOS, Linux and releases; the calendar's prices must read identically everywhere and in
/// tests, so the few styles Tally ships prices for are spelled out here.
public enum MoneyFormat {
  struct Style {
    let symbol: String
    let symbolFirst: Bool
    let decimalSeparator: String
    let groupingSeparator: String
  }

  /// How each country writes its own currency. Australia and Canada write their dollars as `$`
  /// at home, just as the US does.
  static let homeStyles: [String: (currency: String, style: Style)] = [
    "US": ("USD", Style(symbol: "$", symbolFirst: true, decimalSeparator: ".", groupingSeparator: ",")),
    "AU": ("AUD", Style(symbol: "$", symbolFirst: true, decimalSeparator: ".", groupingSeparator: ",")),
    "CA": ("CAD", Style(symbol: "$", symbolFirst: true, decimalSeparator: ".", groupingSeparator: ",")),
    "GB": ("GBP", Style(symbol: "£", symbolFirst: true, decimalSeparator: ".", groupingSeparator: ",")),
    "DE": ("EUR", Style(symbol: "€", symbolFirst: false, decimalSeparator: ",", groupingSeparator: ".")),
  ]

  /// `amount` rounded half-up to cents and written the way `country` writes `currency`:
  /// "$17.99" (US, AU, CA), "£10.99" (GB), "9,99 €" (DE). A currency that is not the
  /// country's own, or a country without a style here, is written with its ISO code so it can
  /// never be mistaken for local money: "USD 17.99".
  public static func string(_ amount: Decimal, currency: String, country: String) -> String {
    let (units, cents) = splitIntoUnitsAndCents(amount.magnitude)
    let sign = amount < 0 ? "-" : ""
    guard let home = homeStyles[country.uppercased()], home.currency == currency.uppercased() else {
      return "\(currency.uppercased()) \(sign)\(grouped(units, by: ",")).\(cents)"
    }
    let style = home.style
    let number = grouped(units, by: style.groupingSeparator) + style.decimalSeparator + cents
    return style.symbolFirst ? sign + style.symbol + number : sign + number + " " + style.symbol
  }

  /// The whole units as digits and the two cent digits, after rounding half-up to cents.
  private static func splitIntoUnitsAndCents(_ amount: Decimal) -> (String, String) {
    var scaled = amount * 100
    var rounded = Decimal()
    NSDecimalRound(&rounded, &scaled, 0, .plain)
    let digits = rounded.description
    let padded = String(repeating: "0", count: max(0, 3 - digits.count)) + digits
    return (String(padded.dropLast(2)), String(padded.suffix(2)))
  }

  private static func grouped(_ digits: String, by separator: String) -> String {
    var groups: [Substring] = []
    var end = digits.endIndex
    while end > digits.startIndex {
      let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
      groups.insert(digits[start..<end], at: 0)
      end = start
    }
    return groups.joined(separator: separator)
  }
}
