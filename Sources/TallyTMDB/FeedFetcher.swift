import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Downloads a calendar feed (such as Sonarr's `/feed/calendar/Sonarr.ics?apikey=…`) for
/// `tally episodes import URL`.
public enum FeedFetcher {
  public static func text(at url: URL, timeout: Duration = .seconds(30), http: HTTPClient = .shared) async throws -> String {
    var request = HTTPClientRequest(url: url.absoluteString)
    request.headers.add(name: "Accept", value: "text/calendar, */*")
    let response: HTTPClientResponse
    let body: ByteBuffer
    do {
      response = try await http.execute(request, timeout: TimeAmount(timeout))
      body = try await response.body.collect(upTo: 64 << 20)
    } catch {
      throw FeedFetchError("\(url.host ?? url.absoluteString) could not be read: \(error)")
    }
    guard (200..<300).contains(Int(response.status.code)) else {
      throw FeedFetchError("\(url.host ?? url.absoluteString) answered with status \(response.status.code)")
    }
    return String(decoding: body.readableBytesView, as: UTF8.self)
  }
}

public struct FeedFetchError: Error, CustomStringConvertible {
  public let description: String

  init(_ description: String) {
    self.description = "The feed " + description + "."
  }
}
