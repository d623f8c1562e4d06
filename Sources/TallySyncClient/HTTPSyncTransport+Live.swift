import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

extension HTTPSyncTransport: LiveSyncTransport {
  /// `GET /api/v1/sync/live`, read as it arrives. A stream that says nothing for
  /// ``liveSilence`` (three of the server's heartbeats) is taken as dead: a proxy or a
  /// network can drop a connection without closing it.
  public func live(after cursor: String?) -> AsyncThrowingStream<LiveEvent, any Error> {
    AsyncThrowingStream { continuation in
      let task = Task {
        do {
          try await readLive(after: cursor) { continuation.yield($0) }
          continuation.finish()
        } catch {
          continuation.finish(throwing: error)
        }
      }
      continuation.onTermination = { _ in task.cancel() }
    }
  }

  private func readLive(after cursor: String?, _ yield: @Sendable @escaping (LiveEvent) -> Void) async throws {
    var url = "\(baseURL)/api/v1/sync/live"
    if let cursor, let escaped = cursor.addingPercentEncoding(withAllowedCharacters: .alphanumerics) {
      url += "?cursor=\(escaped)"
    }
    var request = HTTPClientRequest(url: url)
    request.headers.add(name: "Authorization", value: "Bearer \(token)")
    request.headers.add(name: "Accept", value: "text/event-stream")
    let heard = LastHeard()
    let silence = liveSilence
    let sent = request
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        let response: HTTPClientResponse
        do {
          response = try await client.execute(sent, deadline: .distantFuture)
        } catch {
          throw SyncTransportError(status: nil, message: "Could not reach \(baseURL): \(error)", retryable: true)
        }
        guard response.status.code == 200 else {
          let code = Int(response.status.code)
          throw SyncTransportError(
            status: code, message: "the live stream was refused (\(response.status.reasonPhrase))",
            retryable: code >= 500 || code == 429 || code == 408)
        }
        var parser = LiveEventParser()
        for try await buffer in response.body {
          heard.now()
          for event in try parser.feed(buffer.readableBytesView) { yield(event) }
        }
      }
      group.addTask {
        while true {
          try await Task.sleep(for: silence / 3)
          if heard.since > silence {
            throw SyncTransportError(
              status: nil, message: "the live stream said nothing for \(silence)", retryable: true)
          }
        }
      }
      // The first to end, the body or the watchdog, ends both.
      _ = try await group.next()
      group.cancelAll()
    }
  }
}

/// When a live stream last said something.
private final class LastHeard: Sendable {
  private let at = Mutex(ContinuousClock.now)

  func now() { at.withLock { $0 = .now } }

  var since: Duration { ContinuousClock.now - at.withLock { $0 } }
}
