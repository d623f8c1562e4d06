import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization
import TallyStore
import Testing

@testable import TallyServer
import TallyServerTesting
import TallyHTTP

/// Requests that miss the cache together compute its body once, rather than every waiting
/// request computing the same list after each commit.
@Suite struct ResponseCacheSharingTests {
  let request = Request(
    head: HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/api/v1/habits"),
    body: RequestBody(buffer: ByteBuffer()))

  /// Sixteen requests at once, one computation; a later revision computes again.
  @Test func requestsThatMissTogetherShareOneComputation() async throws {
    let cache = ResponseCache()
    let computed = Count()
    let request = request
    let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
      for _ in 0..<16 {
        group.addTask {
          let response = try await cache.response(for: "list", revision: StoreRevision(head: 1), request: request) {
            computed.add()
            // Long enough that every other request arrives while this one computes.
            try await Task.sleep(for: .milliseconds(500))
            return Data("made at 1".utf8)
          }
          return response.status
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(computed.value == 1)
    // Every request was answered, and only one body was made: the one they share.
    #expect(statuses == Array(repeating: .ok, count: 16))
    _ = try await cache.response(for: "list", revision: StoreRevision(head: 2), request: request) {
      computed.add()
      return Data("made at 2".utf8)
    }
    #expect(computed.value == 2)
  }

  /// When the first computation fails, its caller gets the error and the waiting requests
  /// compute their own bodies rather than share it.
  @Test func aFailedComputationIsNotHandedToTheWaitingRequests() async throws {
    let cache = ResponseCache()
    let attempts = Count()
    let request = request
    let outcomes = await withTaskGroup(of: Bool.self) { group in
      for _ in 0..<4 {
        group.addTask {
          do {
            _ = try await cache.response(for: "list", revision: StoreRevision(head: 1), request: request) {
              let attempt = attempts.add()
              try await Task.sleep(for: .milliseconds(300))
              if attempt == 1 { throw StoreError.storage("the database went away") }
              return Data("made".utf8)
            }
            return true
          } catch {
            return false
          }
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(outcomes.filter { !$0 }.count == 1)
    #expect(outcomes.filter { $0 }.count == 3)
  }
}

/// A number tasks add to.
private final class Count: Sendable {
  private let count = Mutex(0)

  var value: Int { count.withLock { $0 } }

  @discardableResult
  func add() -> Int {
    count.withLock { value in
      value += 1
      return value
    }
  }
}
