import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import TallyHTTP
import Testing

extension TestClientProtocol {
  /// Posts `fields` as a browser posts a form (`application/x-www-form-urlencoded`).
  @discardableResult
  package func postPageForm(_ uri: String, _ fields: [(String, String)], headers: HTTPFields) async throws -> TestResponse {
    var headers = headers
    headers[.contentType] = "application/x-www-form-urlencoded"
    let body = fields.map { "\(Self.formEncoded($0))=\(Self.formEncoded($1))" }.joined(separator: "&")
    return try await executeRequest(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body))
  }

  /// A page as the signed-in user sees it; fails the test unless it is an HTML page with `status`.
  package func page(_ uri: String, headers: HTTPFields, status: HTTPResponse.Status = .ok) async throws -> String {
    let response = try await send(.get, uri, headers: headers)
    #expect(response.status == status, "\(uri): \(response.text.prefix(400))")
    #expect(response.headers[.contentType]?.hasPrefix("text/html") == true, "\(uri)")
    return response.text
  }

  /// Changes the user's settings through the API.
  package func patchSettings(_ fields: [String: Any], headers: HTTPFields) async throws {
    let response = try await send(.patch, "/api/v1/settings", json: fields, headers: headers)
    #expect(response.status == .ok, "\(response.text)")
  }

  private static func formEncoded(_ text: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._*")
    return (text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text).replacingOccurrences(of: "%20", with: "+")
  }
}

extension String {
  /// How many times `part` occurs.
  package func occurrences(of part: String) -> Int {
    components(separatedBy: part).count - 1
  }
}
