import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization
import TallyStore

/// Computed bodies of expensive reads (a habit list with statistics, the ranking, the habit
/// and Today pages), kept until the store's revision moves.
///
/// The revision is read *before* the data, so a write that lands in between makes the entry
/// look older than it is and the next request computes again: a kept body is never staler
/// than the store. The key holds the user, today and the whole request URI, so nothing is
/// shared between users or days.
final class ResponseCache: Sendable {
  private struct Entry {
    var revision: StoreRevision
    var body: Data
    var etag: String
  }

  private let entries = Mutex<[String: Entry]>([:])
  let capacity: Int

  init(capacity: Int = 512) {
    self.capacity = capacity
  }

  /// The body for `key` at `revision`, computing it with `make` when there is none; a
  /// request whose `If-None-Match` names it gets a 304.
  func response(
    for key: String, revision: StoreRevision, request: Request,
    contentType: String = "application/json; charset=utf-8",
    make: () async throws -> Data
  ) async throws -> Response {
    var entry = entries.withLock { $0[key] }.flatMap { $0.revision == revision ? $0 : nil }
    if entry == nil {
      let body = try await make()
      let made = Entry(revision: revision, body: body, etag: Self.etag(key: key, revision: revision))
      entries.withLock { entries in
        // Past capacity, start over: simpler than LRU and rare for a self-hosted server.
        if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
        entries[key] = made
      }
      entry = made
    }
    guard let entry else { preconditionFailure("an entry was just made") }
    if request.headers[.ifNoneMatch] == entry.etag {
      return Response(status: .notModified, headers: [.eTag: entry.etag])
    }
    return Response(
      status: .ok,
      headers: [.contentType: contentType, .eTag: entry.etag, .cacheControl: "private, no-cache"],
      body: .init(byteBuffer: ByteBuffer(bytes: entry.body)))
  }

  /// A strong validator: the key and the revision, hashed (FNV-1a, stable across runs).
  static func etag(key: String, revision: StoreRevision) -> String {
    "\"\(FNV1a.hex("\(key)|\(revision)".utf8))\""
  }
}
