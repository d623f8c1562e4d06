import Foundation

/// Base64url without padding (RFC 4648 §5), as Web Push keys, salts and VAPID use it, and as
/// Tally writes the secrets it hands to clients.
public enum Base64URL {
  public static func encode(_ data: some DataProtocol) -> String {
    Data(data).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  /// `nil` for anything that is not base64url; standard base64 and padding are accepted too,
  /// since browsers' `PushSubscription.toJSON()` and older libraries differ.
  public static func decode(_ text: String) -> Data? {
    var base64 = text.trimmingCharacters(in: .whitespaces)
      .replacingOccurrences(of: "-", with: "+")
      .replacingOccurrences(of: "_", with: "/")
    while base64.hasSuffix("=") { base64.removeLast() }
    guard base64.utf8.count % 4 != 1 else { return nil }
    base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
    return Data(base64Encoded: base64)
  }
}
