import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization
import TallyStore

/// Computed bodies of expensive reads (a habit list with statistics, the ranking, the habit
/// and Today pages), kept until the user's revision moves: one user's writes leave every
/// other user's bodies and ETags as they were.
///
/// The revision is read *before* the data, so a write that lands in between makes the entry
/// look older than it is and the next request computes again: a kept body is never staler
/// than the store. The key holds the user, today and the whole request URI, so nothing is
/// shared between users or days.
///
/// Requests that miss together share one computation: the first computes, the others for the
/// same key and revision wait for its body. Without that, a revision moving under load set
/// every waiting request computing the same body at once.
package final class ResponseCache: Sendable {
  private struct Entry {
    var revision: StoreRevision
    /// Kept as the buffer the response writes: every answer shares it rather than copying
    /// the body (270 KiB for the habit list) into a new one.
    var body: ByteBuffer
    var etag: String
  }

  /// A body being computed, and the requests waiting for it.
  private struct Pending {
    var revision: StoreRevision
    var waiting: [CheckedContinuation<Entry?, Never>] = []
  }

  private struct State {
    var entries: [String: Entry] = [:]
    var pending: [String: Pending] = [:]
  }

  private enum Step {
    case answer(Entry?)
    case wait
  }

  private let state = Mutex(State())
  package let capacity: Int

  package init(capacity: Int = 512) {
    self.capacity = capacity
  }

  /// The body for `key` at `revision`, computing it with `make` when there is none; a
  /// request whose `If-None-Match` names it gets a 304.
  package func response(
    for key: String, revision: StoreRevision, request: Request,
    contentType: String = "application/json; charset=utf-8",
    make: () async throws -> Data
  ) async throws -> Response {
    var leads = false
    var entry = await withCheckedContinuation { continuation in
      let step = state.withLock { state -> Step in
        if let kept = state.entries[key], kept.revision == revision { return .answer(kept) }
        if state.pending[key]?.revision == revision {
          state.pending[key]?.waiting.append(continuation)
          return .wait
        }
        if state.pending[key] == nil {
          state.pending[key] = Pending(revision: revision)
          leads = true
        }
        return .answer(nil)
      }
      if case .answer(let entry) = step { continuation.resume(returning: entry) }
    }
    if entry == nil {
      // The first to miss, or a waiter whose computation failed, or a request for another
      // revision than the one being computed: each computes on its own.
      do {
        entry = try await compute(key, revision: revision, make: make)
      } catch {
        if leads { finish(key, with: nil) }
        throw error
      }
      if leads { finish(key, with: entry) }
    }
    guard let entry else { preconditionFailure("an entry was just made") }
    if request.headers[.ifNoneMatch] == entry.etag {
      return Response(status: .notModified, headers: [.eTag: entry.etag])
    }
    return Response(
      status: .ok,
      headers: [.contentType: contentType, .eTag: entry.etag, .cacheControl: "private, no-cache"],
      body: .init(byteBuffer: entry.body))
  }

  private func compute(_ key: String, revision: StoreRevision, make: () async throws -> Data) async throws -> Entry {
    let made = Entry(
      revision: revision, body: ByteBuffer(bytes: try await make()), etag: Self.etag(key: key, revision: revision))
    state.withLock { state in
      // Past capacity, start over: simpler than LRU and rare for a self-hosted server.
      if state.entries.count >= capacity { state.entries.removeAll(keepingCapacity: true) }
      state.entries[key] = made
    }
    return made
  }

  /// Hands the leader's body to the requests waiting for it; after a failure they compute
  /// their own.
  private func finish(_ key: String, with entry: Entry?) {
    let waiting = state.withLock { state in state.pending.removeValue(forKey: key)?.waiting ?? [] }
    for continuation in waiting { continuation.resume(returning: entry) }
  }

  /// A strong validator: the key and the revision, hashed (FNV-1a, stable across runs).
  package static func etag(key: String, revision: StoreRevision) -> String {
    "\"\(FNV1a.hex("\(key)|\(revision)".utf8))\""
  }
}
