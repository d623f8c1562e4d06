import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import TallySync

/// The sync protocol over HTTP with an API token (docs/sync.md).
public struct HTTPSyncTransport: SyncTransport {
  public let baseURL: String
  public let token: String
  public let client: HTTPClient
  /// How long one request may take, answer included.
  public var timeout: TimeAmount = .seconds(60)
  /// The largest answer read: a page is bounded by the server, this bounds a bad server.
  public var maxResponseSize = 256 << 20
  /// How long a live stream may say nothing before it is taken as dead: three of the
  /// server's heartbeats.
  public var liveSilence: Duration = .seconds(45)

  public init(baseURL: String, token: String, client: HTTPClient = .shared) {
    self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
    self.token = token
    self.client = client
  }

  public func pull(cursor: String?, limit: Int) async throws -> SyncPullResponse {
    var query = "limit=\(limit)"
    if let cursor, let escaped = cursor.addingPercentEncoding(withAllowedCharacters: .alphanumerics) {
      query += "&cursor=\(escaped)"
    }
    var request = HTTPClientRequest(url: "\(baseURL)/api/v1/sync?\(query)")
    request.method = .GET
    // Read by hand: a first pull is hundreds of thousands of changes (SyncJSONReader).
    return try await send(request) { try SyncJSONReader.pull($0.readableBytesView) }
  }

  public func push(_ batch: SyncPushRequest) async throws -> SyncPushResponse {
    var request = HTTPClientRequest(url: "\(baseURL)/api/v1/sync")
    request.method = .POST
    request.headers.add(name: "Content-Type", value: "application/json")
    request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(batch)))
    return try await send(request) { try JSONDecoder().decode(SyncPushResponse.self, from: Data($0.readableBytesView)) }
  }

  /// Checks the URL and token by asking for an empty page.
  public func check() async throws {
    _ = try await pull(cursor: nil, limit: 1)
  }

  private func send<T>(_ request: HTTPClientRequest, reading read: (ByteBuffer) throws -> T) async throws -> T {
    var request = request
    request.headers.add(name: "Authorization", value: "Bearer \(token)")
    request.headers.add(name: "Accept", value: "application/json")
    let response: HTTPClientResponse
    let body: ByteBuffer
    do {
      response = try await client.execute(request, timeout: timeout)
      body = try await response.body.collect(upTo: maxResponseSize)
    } catch {
      throw SyncTransportError(
        status: nil, message: "Could not reach \(baseURL): \(error)", retryable: true)
    }
    guard (200..<300).contains(response.status.code) else {
      let code = Int(response.status.code)
      let problem = try? JSONDecoder().decode(ProblemText.self, from: Data(body.readableBytesView))
      throw SyncTransportError(
        status: code, message: problem?.detail ?? problem?.title ?? response.status.reasonPhrase,
        retryable: code >= 500 || code == 429 || code == 408)
    }
    do {
      return try read(body)
    } catch {
      throw SyncTransportError(
        status: Int(response.status.code), message: "the answer is not what Tally's server sends (\(error))",
        retryable: false)
    }
  }

  private struct ProblemText: Decodable {
    var title: String?
    var detail: String?
  }
}
