import Foundation
import HTTPTypes
import Hummingbird
import TallyAccounts
import TallyCore
import TallyOIDC
import TallyStore
import TallySync
import TallyWire

/// An error as RFC 9457 `application/problem+json`: a status, a short title and a sentence
/// saying what was wrong. `field` names the request field at fault, when there is one.
public struct Problem: Error, HTTPResponseError, Encodable, Equatable, Sendable {
  public var status: HTTPResponse.Status
  public var title: String
  public var detail: String
  public var field: String?
  /// Seconds, sent as `Retry-After` too.
  public var retryAfter: Int?
  /// The methods a 405's path takes, sent as `Allow` only.
  public var allow: [String]?
  /// The broken rule whose kind and values a client translates (`code` and `values`, the same
  /// in every language); `nil` when the status says all there is.
  public var rule: ValidationError?

  public init(
    _ status: HTTPResponse.Status, _ detail: String, field: String? = nil, retryAfter: Int? = nil,
    allow: [String]? = nil, rule: ValidationError? = nil
  ) {
    self.status = status
    self.title = status.reasonPhrase
    self.detail = detail
    self.field = field
    self.retryAfter = retryAfter
    self.allow = allow
    // A rule of kind `other` has no sentence a client could say instead of `detail`.
    self.rule = rule?.kind == .other ? nil : rule
  }

  /// A broken rule as a problem with `status`, naming `field` (the rule's own field when not
  /// given).
  public init(_ status: HTTPResponse.Status, _ error: ValidationError, field: String? = nil) {
    self.init(status, "The \(error.field) \(error.rule).", field: field ?? error.field, rule: error)
  }

  package enum CodingKeys: String, CodingKey {
    case type, title, status, detail, field, code, values, retryAfter
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode("about:blank", forKey: .type)
    try container.encode(title, forKey: .title)
    try container.encode(status.code, forKey: .status)
    try container.encode(detail, forKey: .detail)
    try container.encodeIfPresent(field, forKey: .field)
    try container.encodeIfPresent(rule?.kind.rawValue, forKey: .code)
    if let values = rule?.values, !values.isEmpty { try container.encode(values, forKey: .values) }
    try container.encodeIfPresent(retryAfter, forKey: .retryAfter)
  }

  public func response(from request: Request, context: some RequestContext) throws -> Response {
    var headers: HTTPFields = [.contentType: "application/problem+json"]
    if let retryAfter { headers[.retryAfter] = String(retryAfter) }
    if let allow { headers[.allow] = allow.joined(separator: ", ") }
    let data = try WireJSON.encoder.encode(self)
    return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
  }

  public static let unauthorized = Problem(
    .unauthorized, "Sign in first: send a session cookie or an 'Authorization: Bearer' API token.")
  public static let ownerOnly = Problem(.forbidden, "Only the server's owner can do this.")

  /// The problem a thrown error means to the client; `nil` for a bug (a 500).
  public static func from(_ error: any Error) -> Problem? {
    switch error {
    case let problem as Problem:
      return problem
    case let error as HTTPError:
      return Problem(error.status, error.body ?? error.status.reasonPhrase)
    case let error as ValidationError:
      return Problem(.unprocessableContent, error)
    case let error as SyncRefusal:
      switch error {
      case .tooManyChanges: return Problem(.contentTooLarge, error.description)
      case .invalid(let index, let rule):
        return Problem(.unprocessableContent, error.description, field: "changes[\(index)].\(rule.field)", rule: rule)
      case .unknown(let index, _, _):
        return Problem(.unprocessableContent, error.description, field: "changes[\(index)]")
      }
    case let error as AccountError:
      switch error {
      case .alreadySetUp: return Problem(.conflict, error.description)
      case .wrongNameOrPassword: return Problem(.unauthorized, error.description)
      case .throttled(let seconds): return Problem(.tooManyRequests, error.description, retryAfter: seconds)
      case .passwordsOff: return Problem(.forbidden, error.description)
      }
    case let error as OIDCError:
      switch error {
      case .providerUnreachable, .answerTooLarge, .discoveryRejected, .keySetRejected, .issuerRejected:
        return Problem(.badGateway, error.description)
      default:
        return Problem(.badRequest, error.description)
      }
    case let error as ProviderSignInError:
      return Problem(.forbidden, error.description)
    case let error as StoreError:
      switch error {
      case .notFound: return Problem(.notFound, error.description)
      case .conflict: return Problem(.conflict, error.description)
      case .invalid(let rule):
        return Problem(.unprocessableContent, error.description, field: rule.field, rule: rule)
      case .storage: return Problem(.serviceUnavailable, error.description)
      default: return nil
      }
    default:
      return nil
    }
  }
}
