import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import TallyOIDC

/// The OpenID Connect client's door to the provider over AsyncHTTPClient: no redirect is
/// followed (a token request must not carry the client secret elsewhere), every call has a
/// time limit, and a body is read to one byte past the caller's limit so it can tell.
struct HTTPProviderTransport: ProviderTransport {
  let timeout: TimeAmount
  let http: HTTPClient

  static let client = HTTPClient(
    eventLoopGroupProvider: .singleton,
    configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))

  init(timeout: Duration = .seconds(10), http: HTTPClient = HTTPProviderTransport.client) {
    self.timeout = TimeAmount(timeout)
    self.http = http
  }

  func send(_ request: ProviderRequest, maxBodyBytes: Int) async throws -> ProviderResponse {
    var outgoing = HTTPClientRequest(url: request.url.absoluteString)
    outgoing.method = request.method == .post ? .POST : .GET
    for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
    outgoing.headers.add(name: "Accept", value: "application/json")
    if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
    let response = try await http.execute(outgoing, timeout: timeout)
    var collected = Data()
    for try await chunk in response.body {
      collected.append(contentsOf: chunk.readableBytesView.prefix(maxBodyBytes + 1 - collected.count))
      if collected.count > maxBodyBytes { break }
    }
    return ProviderResponse(status: Int(response.status.code), body: collected)
  }
}
