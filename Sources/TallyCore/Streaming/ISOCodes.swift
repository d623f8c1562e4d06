/// ISO 3166-1 alpha-2 country codes ("US", "DE").
///
/// Input is accepted in any case so `--country us` works; everything stored or compared uses
/// the upper-case form, so "us" and "US" can never name two different markets.
public enum CountryCode {
  public static func normalized(_ text: String, field: String = "country") throws(ValidationError)
    -> String
  {
    try ISOLetters.normalized(
      text, count: 2, field: field,
      rule: "must be a two-letter ISO 3166 country code like US or DE, not '\(text)'")
  }
}

/// ISO 4217 currency codes ("USD", "EUR"), normalised to upper case like ``CountryCode``.
public enum CurrencyCode {
  public static func normalized(_ text: String, field: String = "currency") throws(ValidationError)
    -> String
  {
    try ISOLetters.normalized(
      text, count: 3, field: field,
      rule: "must be a three-letter ISO 4217 currency code like USD or EUR, not '\(text)'")
  }
}

private enum ISOLetters {
  static func normalized(_ text: String, count: Int, field: String, rule: String)
    throws(ValidationError) -> String
  {
    let isASCIILetter: (UInt8) -> Bool = { (65...90).contains($0) || (97...122).contains($0) }
    guard text.utf8.count == count, text.utf8.allSatisfy(isASCIILetter) else {
      throw ValidationError(field: field, rule: rule)
    }
    return text.uppercased()
  }
}
