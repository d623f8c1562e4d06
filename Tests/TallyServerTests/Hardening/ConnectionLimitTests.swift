import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Prometheus
import TallyHTTP
import TallyServer
import TallyServerTesting
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 17, point 5: a client that sends its head slowly, or nothing at all, or a huge request
/// line, cannot hold a connection for ever.
@Suite struct ConnectionLimitTests {
  static func server() throws -> TestServer {
    var configuration = ServerConfiguration()
    configuration.idleTimeout = .seconds(1)
    return try TestServer(configuration: configuration)
  }

  @Test func anIdleConnectionAndAHalfSentHeadAreClosed() async throws {
    try await Self.server().testLive { client in
      let port = try #require(client.port)
      let idle = try RawConnection(port: port)
      let slow = try RawConnection(port: port)
      try slow.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
      try await Task.sleep(for: .milliseconds(600))
      try slow.send("X-Slow: 1\r\n")  // bytes trickling in do not keep it open
      // Both are closed within the time-out (1 s) and a scheduling margin.
      #expect(await idle.closedWithin(seconds: 3))
      #expect(await slow.closedWithin(seconds: 3))
      // A request sent in time is still answered, however long a loaded machine takes.
      let fresh = try RawConnection(port: port)
      try fresh.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
      #expect(await fresh.readAll(seconds: 15).hasPrefix("HTTP/1.1 200"))
    }
  }

  /// A head over the limits is dropped at once, not after the idle time-out (a minute here, so
  /// a loaded machine's delay cannot pass for it): the server answers a problem+json 400 when it can, and
  /// closes. (Closing with the client's bytes unread may reset the connection, and a reset
  /// discards the answer, so the answer is not required.)
  @Test(arguments: [
    "GET /\(String(repeating: "a", count: HTTPLimits.maxLineSize + 1)) HTTP/1.1\r\nHost: x\r\n\r\n",
    "GET /healthz HTTP/1.1\r\nHost: x\r\n\((0...HTTPLimits.maxHeaderCount).map { "X-H\($0): v\r\n" }.joined())\r\n",
    "GET /healthz HTTP/1.1\r\nHost: x\r\n\((0..<5).map { "X-H\($0): \(String(repeating: "v", count: 7000))\r\n" }.joined())\r\n",
  ])
  func aHeadOverTheLimitsIsDroppedAtOnce(head: String) async throws {
    var configuration = ServerConfiguration()
    configuration.idleTimeout = .seconds(60)
    try await TestServer(configuration: configuration).testLive { client in
      let connection = try RawConnection(port: try #require(client.port))
      let started = Date()
      try? connection.send(head)
      let answer = await connection.readAll(seconds: 30)
      #expect(
        answer.isEmpty || answer.hasPrefix("HTTP/1.1 400") && answer.contains("application/problem+json"),
        "\(answer.prefix(200))")
      #expect(Date().timeIntervalSince(started) < 30)
      #expect(await connection.closedWithin(seconds: 1))
    }
  }

  @Test func aHeadJustUnderTheLimitsIsServed() async throws {
    try await TestServer().testLive { client in
      let connection = try RawConnection(port: try #require(client.port))
      let path = "/healthz?" + String(repeating: "a", count: HTTPLimits.maxLineSize - 100)
      try connection.send("GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
      #expect(await connection.readAll(seconds: 15).hasPrefix("HTTP/1.1 200"))
    }
  }

  /// Point 12: the public port has no `/metrics`; its own listener has.
  @Test func metricsAreNotOnThePublicPort() async throws {
    try await TestServer().test { client in
      let response = try await client.send(.get, "/metrics")
      #expect(response.status == .notFound)
    }
    try await Application(router: buildMetricsRouter(PrometheusCollectorRegistry())).test(.router) { client in
      let response = try await client.executeRequest(uri: "/metrics", method: .get, headers: [:], body: nil)
      #expect(response.status == .ok)
      #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
    }
  }
}

/// A plain TCP connection to the local server, for what an HTTP client will not send.
final class RawConnection: Sendable {
  let socket: Int32

  init(port: Int) throws {
    socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
  }

  deinit { close(socket) }

  func send(_ text: String) throws {
    let bytes = Array(text.utf8)
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      guard count > 0 else { throw POSIXError(.EPIPE) }
      sent += count
    }
  }

  /// Everything the server sends until it closes or `seconds` pass. Waits on a thread of its
  /// own: blocking the concurrency pool would starve the server under test.
  func readAll(seconds: Int) async -> String {
    await offThePool { self.readAllBlocking(seconds: seconds) }
  }

  /// Whether the server closed the connection (a read sees its end, or a reset) in time.
  func closedWithin(seconds: Int) async -> Bool {
    await offThePool { self.closedWithinBlocking(seconds: seconds) }
  }

  private func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
      Thread { continuation.resume(returning: work()) }.start()
    }
  }

  private func readAllBlocking(seconds: Int) -> String {
    var received: [UInt8] = []
    let deadline = Date().addingTimeInterval(Double(seconds))
    var buffer = [UInt8](repeating: 0, count: 4096)
    while Date() < deadline {
      var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, 100) > 0 else { continue }
      let count = recv(socket, &buffer, buffer.count, 0)
      if count <= 0 { break }
      received += buffer[0..<count]
    }
    return String(decoding: received, as: UTF8.self)
  }

  private func closedWithinBlocking(seconds: Int) -> Bool {
    let deadline = Date().addingTimeInterval(Double(seconds))
    var buffer = [UInt8](repeating: 0, count: 4096)
    while Date() < deadline {
      var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, 100) > 0 else { continue }
      if recv(socket, &buffer, buffer.count, 0) <= 0 { return true }
    }
    return false
  }
}
