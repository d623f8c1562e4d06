import Foundation
import TallyPush
import TallyTMDB

/// Provider logos, fetched by the server and served from Tally's own origin, so a page makes
/// no request to another site (issue 60; the policy's `img-src` is `'self' data:`). Pages link
/// ``path(for:)``; the route serves a logo only to a user one of whose shows names it. Kept in
/// memory, and in `folder` when there is one (beside an SQLite database), each up to
/// `maxBytes` in all, the least recently used going first. A logo that could not be fetched,
/// or whose address is not a public https host, is missing (the page shows an empty disc) and
/// is asked for again after ``retryAfter``.
public actor LogoCache {
  public typealias Fetch = @Sendable (URL) async throws -> (data: Data, contentType: String)
  typealias Image = (data: Data, contentType: String)

  package static let retryAfter: Duration = .seconds(3600)
  /// The file extension each kept type is written with.
  static let extensions = ["image/png": "png", "image/jpeg": "jpg", "image/webp": "webp", "image/gif": "gif"]

  private struct Kept {
    let image: Image?
    let at: ContinuousClock.Instant
  }

  private let folder: URL?
  private let maxBytes: Int
  private let fetch: Fetch
  private var kept: [URL: Kept] = [:]
  /// Least recently used first.
  private var order: [URL] = []
  private var total = 0

  /// `fetch` stands in for the network in tests; by default only public https hosts are asked.
  public init(folder: URL? = nil, maxBytes: Int = 16 << 20, fetch: Fetch? = nil) {
    self.folder = folder
    self.maxBytes = maxBytes
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
    "/logos/" + key(for: url)
  }

  private static func key(for url: URL) -> String {
    FNV1a.hex(url.absoluteString.utf8)
  }

  /// The logo, from memory, the folder, or fetched now; `nil` when it cannot be had.
  package func image(at url: URL) async -> (data: Data, contentType: String)? {
    let now = ContinuousClock.now
    if let known = kept[url], known.image != nil || now - known.at < Self.retryAfter {
      touch(url)
      return known.image
    }
    if let stored = stored(url) {
      keep(stored, for: url, at: now)
      return stored
    }
    let image = try? await fetch(url)
    keep(image, for: url, at: now)
    if let image { store(image, for: url) }
    return image
  }

  private func keep(_ image: Image?, for url: URL, at now: ContinuousClock.Instant) {
    if let old = kept.removeValue(forKey: url) {
      total -= old.image?.data.count ?? 0
      order.removeAll { $0 == url }
    }
    kept[url] = Kept(image: image, at: now)
    order.append(url)
    total += image?.data.count ?? 0
    // A missing logo weighs nothing, so how many are kept is bounded too.
    while total > maxBytes || order.count > 4096, let oldest = order.first {
      order.removeFirst()
      total -= kept.removeValue(forKey: oldest)?.image?.data.count ?? 0
    }
  }

  private func touch(_ url: URL) {
    order.removeAll { $0 == url }
    order.append(url)
  }

  // MARK: - The folder

  private func stored(_ url: URL) -> Image? {
    guard let folder else { return nil }
    for (type, fileExtension) in Self.extensions {
      let file = folder.appendingPathComponent("\(Self.key(for: url)).\(fileExtension)")
      if let data = try? Data(contentsOf: file) { return (data, type) }
    }
    return nil
  }

  /// Writes the logo, then removes the files least recently written until the folder is
  /// within `maxBytes`. A folder that cannot be written leaves the logo in memory only.
  private func store(_ image: Image, for url: URL) {
    guard let folder, let fileExtension = Self.extensions[image.contentType] else { return }
    let files = FileManager.default
    try? files.createDirectory(at: folder, withIntermediateDirectories: true)
    try? image.data.write(to: folder.appendingPathComponent("\(Self.key(for: url)).\(fileExtension)"), options: .atomic)
    let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
    var present = ((try? files.contentsOfDirectory(at: folder, includingPropertiesForKeys: keys)) ?? []).compactMap {
      file -> (file: URL, size: Int, written: Date)? in
      guard let values = try? file.resourceValues(forKeys: Set(keys)) else { return nil }
      return (file, values.fileSize ?? 0, values.contentModificationDate ?? .distantPast)
    }.sorted { $0.written < $1.written }
    var size = present.reduce(0) { $0 + $1.size }
    while size > maxBytes, !present.isEmpty {
      let oldest = present.removeFirst()
      try? files.removeItem(at: oldest.file)
      size -= oldest.size
    }
  }
}

struct LogoRefused: Error, CustomStringConvertible {
  let description: String
}
