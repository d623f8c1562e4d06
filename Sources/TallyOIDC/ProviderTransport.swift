import Foundation

/// One request Tally makes of the provider: discovery, the key set, the token endpoint.
public struct ProviderRequest: Sendable, Equatable {
  public enum Method: String, Sendable { case get = "GET", post = "POST" }

  public var method: Method
  public var url: URL
  public var headers: [String: String]
  public var body: Data?

  public init(method: Method, url: URL, headers: [String: String] = [:], body: Data? = nil) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
  }
}

/// The provider's answer: status and body (the headers say nothing the code flow needs).
public struct ProviderResponse: Sendable, Equatable {
  public var status: Int
  public var body: Data

  public init(status: Int, body: Data) {
    self.status = status
    self.body = body
  }
}

/// How Tally reaches the provider: the server passes one over its HTTP client, tests a provider
/// of their own, so nothing here opens a socket. An implementation follows no redirect (a token
/// request must not be re-sent elsewhere with the client secret), and reads at most one byte
/// past `maxBodyBytes` (so the client can tell the answer was too long) or throws.
public protocol ProviderTransport: Sendable {
  func send(_ request: ProviderRequest, maxBodyBytes: Int) async throws -> ProviderResponse
}

extension ProviderTransport {
  /// `request`'s answer, with every failure to reach the provider one error naming the URL,
  /// and an answer over `limit` bytes refused whatever the implementation did with it.
  func exchange(_ request: ProviderRequest, limit: Int) async throws -> ProviderResponse {
    let response: ProviderResponse
    do {
      response = try await send(request, maxBodyBytes: limit)
    } catch {
      throw OIDCError.providerUnreachable(url: request.url.absoluteString, reason: clipped(String(describing: error)))
    }
    guard response.body.count <= limit else {
      throw OIDCError.answerTooLarge(url: request.url.absoluteString, limit: limit)
    }
    return response
  }
}
