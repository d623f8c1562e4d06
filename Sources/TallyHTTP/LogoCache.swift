import Foundation
import TallyPush
import TallyTMDB

/// Provider logos, fetched by the server and served from Tally's own origin, so a page makes
/// no request to another site (issue 60; the policy's `img-src` is `'self' data:`). Pages link
/// ``path(for:)``; the route serves a logo only to a user one of whose shows names it. Kept in
/// memory up to ``maxBytes`` in all, the least recently used going first; a logo that could
/// not be fetched, or that is not a public https address, is missing (the page shows an empty
/// disc) and is asked for again after ``retryAfter``.
public actor LogoCache {
  public typealias Fetch = @Sendable (URL) async throws -> (data: Data, contentType: String)

  package static let maxBytes = 16 << 20
  package static let retryAfter: Duration = .seconds(3600)

  private struct Kept {
    let image: (data: Data, contentType: String)?
    let at: ContinuousClock.Instant
  }

  private let fetch: Fetch
  private var kept: [URL: Kept] = [:]
  /// Least recently used first.
  private var order: [URL] = []
  private var total = 0

  /// `fetch` stands in for the network in tests; by default only public https hosts are asked.
  public init(fetch: Fetch? = nil) {
    self.fetch =
      fetch ?? { url in
        if let refusal = PushEndpointPolicy(allowLoopback: false).refusal(url) {
          throw LogoRefused(description: "The logo address \(refusal).")
        }
        return try await ImageFetcher.image(at: url)
      }
  }

  /// Where a page links the logo at `url`.
  package static func path(for url: URL) -> String {
    "/logos/" + FNV1a.hex(url.absoluteString.utf8)
  }

  /// The logo, from memory or fetched now; `nil` when it cannot be had.
  package func image(at url: URL) async -> (data: Data, contentType: String)? {
    let now = ContinuousClock.now
    if let known = kept[url], known.image != nil || now - known.at < Self.retryAfter {
      touch(url)
      return known.image
    }
    let image = try? await fetch(url)
    keep(image, for: url, at: now)
    return image
  }

  private func keep(_ image: (data: Data, contentType: String)?, for url: URL, at now: ContinuousClock.Instant) {
    if let old = kept.removeValue(forKey: url) {
      total -= old.image?.data.count ?? 0
      order.removeAll { $0 == url }
    }
    kept[url] = Kept(image: image, at: now)
    order.append(url)
    total += image?.data.count ?? 0
    // A missing logo weighs nothing, so how many are kept is bounded too.
    while total > Self.maxBytes || order.count > 4096, let oldest = order.first {
      order.removeFirst()
      total -= kept.removeValue(forKey: oldest)?.image?.data.count ?? 0
    }
  }

  private func touch(_ url: URL) {
    order.removeAll { $0 == url }
    order.append(url)
  }
}

struct LogoRefused: Error, CustomStringConvertible {
  let description: String
}
