import Foundation

/// `application/x-www-form-urlencoded` as RFC 6749 Appendix B asks: every byte outside the
/// unreserved characters percent-encoded, so a `+`, `&`, `=` or `:` in a value (a client
/// secret, a redirect URI) cannot change the form's meaning.
enum FormEncoding {
  static func encode(_ pairs: [(String, String)]) -> String {
    pairs.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
  }

  static func escape(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: unreserved)!
  }

  private static let unreserved = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
