import Foundation

/// What the provider's redirect brings back in the callback's query (OpenID Connect Core
/// §3.1.2.5 and §3.1.2.6, RFC 9207's `iss`).
public struct CallbackParameters: Sendable, Equatable {
  public var state: String?
  public var code: String?
  public var error: String?
  public var errorDescription: String?
  public var issuer: String?

  /// The longest value Tally reads: codes and states are far shorter, and the query comes
  /// from the browser.
  public static let maxValueBytes = 4096

  public init(
    state: String? = nil, code: String? = nil, error: String? = nil, errorDescription: String? = nil,
    issuer: String? = nil
  ) {
    self.state = state
    self.code = code
    self.error = error
    self.errorDescription = errorDescription
    self.issuer = issuer
  }

  /// From the callback URL's query items; a name given twice counts its first value.
  public init(queryItems: [URLQueryItem]) {
    func value(_ name: String) -> String? { queryItems.first { $0.name == name }?.value }
    self.init(
      state: value("state"), code: value("code"), error: value("error"),
      errorDescription: value("error_description"), issuer: value("iss"))
  }

  /// The name of a value longer than ``maxValueBytes``, if any.
  var oversized: String? {
    let values: [(String, String?)] = [
      ("state", state), ("code", code), ("error", error), ("error_description", errorDescription), ("iss", issuer),
    ]
    return values.first { ($0.1?.utf8.count ?? 0) > Self.maxValueBytes }?.0
  }
}
