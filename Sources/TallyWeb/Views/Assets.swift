import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import TallyHTTP

/// The stylesheet, script, icons and manifest in `Resources/web`, read once and served from
/// memory. Each has an ETag from its bytes; pages link `name?v=<etag>`, so a versioned URL
/// can be cached for a year and a new release is fetched at once.
struct Assets: Sendable {
  struct Asset: Sendable {
    let bytes: ByteBuffer
    let contentType: String
    let etag: String
  }

  let files: [String: Asset]

  static let shared: Assets = {
    guard let folder = Bundle.module.url(forResource: "web", withExtension: nil, subdirectory: "Resources"),
      let assets = try? Assets(folder: folder)
    else { preconditionFailure("Resources/web is missing from the bundle") }
    return assets
  }()

  init(folder: URL) throws {
    var files: [String: Asset] = [:]
    var worker: Data?
    for file in try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil) {
      let data = try Data(contentsOf: file)
      if file.lastPathComponent == Self.serviceWorker { worker = data }
      files[file.lastPathComponent] = Self.asset(data, pathExtension: file.pathExtension)
    }
    if let worker {
      files[Self.serviceWorker] = Self.asset(Self.versioned(worker: worker, shell: files), pathExtension: "js")
    }
    self.files = files
  }

  static let serviceWorker = "sw.js"

  private static func asset(_ data: Data, pathExtension: String) -> Asset {
    Asset(bytes: ByteBuffer(bytes: data), contentType: contentType(of: pathExtension), etag: FNV1a.hex(data))
  }

  /// The service worker with the app shell it precaches: every other asset at its versioned
  /// URL, and a version made of them and the worker itself. A release that changes any of
  /// them changes the worker's bytes, so browsers install it and swap the whole shell at once
  /// (docs/web.md).
  private static func versioned(worker: Data, shell files: [String: Asset]) -> Data {
    let shell = files.keys.filter { $0 != serviceWorker }.sorted().map { path($0, etag: files[$0]!.etag) }
    let list = "[" + (shell + ["/manifest.webmanifest"]).map { "\"\($0)\"" }.joined(separator: ", ") + "]"
    let version = FNV1a.hex(Array(shell.joined(separator: "\n").utf8) + Array(worker))
    let text = String(decoding: worker, as: UTF8.self)
      .replacingOccurrences(of: "\"TALLY_SHELL\"", with: list)
      .replacingOccurrences(of: "TALLY_VERSION", with: version)
    return Data(text.utf8)
  }

  /// The URL a page links to: versioned by content.
  func href(_ name: String) -> String {
    guard let asset = files[name] else { preconditionFailure("no asset named \(name)") }
    return Self.path(name, etag: asset.etag)
  }

  private static func path(_ name: String, etag: String) -> String { "/assets/\(name)?v=\(etag)" }

  func response(for name: String, request: Request) -> Response? {
    guard let asset = files[name] else { return nil }
    let etag = "\"\(asset.etag)\""
    let versioned = request.uri.queryParameters["v"].map(String.init) == asset.etag
    var headers: HTTPFields = [
      .contentType: asset.contentType, .eTag: etag,
      .cacheControl: versioned ? "public, max-age=31536000, immutable" : "no-cache",
    ]
    if request.headers[.ifNoneMatch]?.split(separator: ",").contains(where: {
      $0.trimmingCharacters(in: .whitespaces) == etag
    }) == true {
      headers[.contentType] = nil
      return Response(status: .notModified, headers: headers)
    }
    return Response(status: .ok, headers: headers, body: .init(byteBuffer: asset.bytes))
  }

  static func contentType(of pathExtension: String) -> String {
    switch pathExtension {
    case "css": "text/css; charset=utf-8"
    case "js": "text/javascript; charset=utf-8"
    case "svg": "image/svg+xml"
    case "png": "image/png"
    case "webmanifest": "application/manifest+json"
    default: "application/octet-stream"
    }
  }

}
