import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Downloads a provider's logo for the server to serve from its own origin (docs/server.md,
/// "Protection"): a raster image of a few kinds, up to ``maxBytes``. SVG is refused: opened
/// from Tally's origin, an SVG's script would run as Tally's.
public enum ImageFetcher {
  public static let maxBytes = 512 << 10
  public static let contentTypes: Set<String> = ["image/png", "image/jpeg", "image/webp", "image/gif"]

  public static func image(
    at url: URL, timeout: Duration = .seconds(10), http: HTTPClient = .shared
  ) async throws -> (data: Data, contentType: String) {
    var request = HTTPClientRequest(url: url.absoluteString)
    request.headers.add(name: "Accept", value: contentTypes.sorted().joined(separator: ", "))
    let response = try await http.execute(request, timeout: TimeAmount(timeout))
    guard (200..<300).contains(Int(response.status.code)) else {
      throw ImageFetchError(description: "\(url.host ?? "") answered with status \(response.status.code)")
    }
    let type = response.headers.first(name: "Content-Type")?.split(separator: ";").first
      .map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
    guard contentTypes.contains(type) else {
      throw ImageFetchError(description: "\(url.host ?? "") sent \(type.isEmpty ? "no content type" : type), not an image Tally shows")
    }
    let body = try await response.body.collect(upTo: maxBytes)
    return (Data(body.readableBytesView), type)
  }
}

public struct ImageFetchError: Error, CustomStringConvertible {
  public let description: String
}
