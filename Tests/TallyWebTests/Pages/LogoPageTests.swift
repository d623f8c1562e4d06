import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Synchronization
import TallyHTTP
import TallyServerTesting
import Testing

/// Issue 60: provider logos are fetched by the server and served from Tally's own origin, so
/// a page makes no request to another site and the policy allows images from `'self'` only.
@Suite struct LogoPageTests {
  static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])

  @Test func aLogoIsServedFromThisOriginAndFetchedOnce() async throws {
    let asked = Mutex<[String]>([])
    let logos = LogoCache { url in
      asked.withLock { $0.append(url.absoluteString) }
      guard url.lastPathComponent == "max.png" else { throw CancellationError() }
      return (Self.png, "image/png")
    }
    try await TestServer(logos: logos).test { client in
      let owner = try await client.setUpOwner()
      let providers: [String: Any] = [
        "US": [
          ["id": 1899, "name": "Max", "logoURL": "https://image.tmdb.org/t/p/max.png"],
          ["id": 8, "name": "Netflix", "logoURL": "https://image.tmdb.org/t/p/gone.png"],
        ]
      ]
      _ = try await client.addAiringShow("Severance", providers: providers, days: ["2026-03-10"], headers: owner)
      let month = try await client.send(.get, "/calendar/2026-03?country=US&day=2026-03-10", headers: owner)
      #expect(month.headers[.contentSecurityPolicy]?.contains("img-src 'self' data:;") == true)
      let sources = MarkupShape(month.text).addresses.filter { $0.hasPrefix("/logos/") || $0.contains("//") }
      #expect(!sources.isEmpty)
      #expect(sources.allSatisfy { $0.hasPrefix("/logos/") }, "\(sources)")
      #expect(!month.text.contains("image.tmdb.org"))

      let maxLogo = try #require(sources.first { $0 == LogoCache.path(for: URL(string: "https://image.tmdb.org/t/p/max.png")!) })
      for _ in 0..<2 {
        let logo = try await client.send(.get, maxLogo, headers: owner)
        #expect(logo.status == .ok)
        #expect(logo.headers[.contentType] == "image/png")
        #expect(Data(logo.body.readableBytesView) == Self.png)
      }
      // A logo that cannot be fetched is a 404 (the page shows the empty disc), asked once.
      let gone = LogoCache.path(for: URL(string: "https://image.tmdb.org/t/p/gone.png")!)
      #expect(try await client.send(.get, gone, headers: owner).status == .notFound)
      #expect(try await client.send(.get, gone, headers: owner).status == .notFound)
      #expect(asked.withLock { $0.sorted() } == ["https://image.tmdb.org/t/p/gone.png", "https://image.tmdb.org/t/p/max.png"])

      // Only a logo one of the user's own shows names is served: no fetching for anyone.
      let bob = try await client.addMember("bob", owner: owner)
      #expect(try await client.send(.get, maxLogo, headers: bob).status == .notFound)
      #expect(try await client.send(.get, "/logos/0123", headers: owner).status == .notFound)
      #expect(try await client.send(.get, maxLogo).status != .ok)
    }
  }

  /// Without a stand-in, only public https hosts are asked: a logo on the server's own network
  /// is never fetched.
  @Test func aLogoOnAPrivateAddressIsNeverFetched() async throws {
    let logos = LogoCache()
    #expect(await logos.image(at: URL(string: "http://127.0.0.1:9/logo.png")!) == nil)
    #expect(await logos.image(at: URL(string: "https://10.0.0.1/logo.png")!) == nil)
  }
}

/// Logos kept in a folder (beside an SQLite database) outlive the process, within their bound.
@Suite struct LogoFolderTests {
  static let png = Data(repeating: 7, count: 1000)

  @Test func aKeptLogoIsReadFromTheFolderAfterARestartAndTheFolderStaysWithinItsBound() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("logos-\(UUID())")
    defer { try? FileManager.default.removeItem(at: folder) }
    let first = LogoCache(folder: folder, maxBytes: 2500) { _ in (Self.png, "image/png") }
    let urls = (1...3).map { URL(string: "https://image.tmdb.org/t/p/\($0).png")! }
    for url in urls { #expect(await first.image(at: url)?.data == Self.png) }
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(files.count == 2, "the oldest goes past 2,500 bytes: \(files)")

    // After a restart, with no network: the two kept are served, the one dropped is missing.
    let restarted = LogoCache(folder: folder, maxBytes: 2500) { _ in throw CancellationError() }
    #expect(await restarted.image(at: urls[2])?.contentType == "image/png")
    #expect(await restarted.image(at: urls[1])?.data == Self.png)
    #expect(await restarted.image(at: urls[0]) == nil)
  }
}
