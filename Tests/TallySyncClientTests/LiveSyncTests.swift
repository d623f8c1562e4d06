import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization
import TallyCore
import TallyHTTP
import TallySQLite
import TallyStore
import TallySync
import TallySyncClient
import TallyTestWaiting
import Testing

/// Live changes (docs/sync.md "Live changes"): the stream a device holds open, and a replica
/// that watches it, through the real server on loopback.
@Suite struct LiveSyncTests {
  /// `tally sync --watch`'s engine: a change made on the server reaches a watching replica
  /// with no sync run by hand, and a day marked on the replica reaches the server at a heartbeat.
  @Test(.timeLimit(.minutes(2)), arguments: ServerBackend.all)
  func aWatchingReplicaTakesTheServersChangesAndSendsItsOwn(_ backend: ServerBackend) async throws {
    var configuration = ServerConfiguration()
    configuration.live.heartbeat = .milliseconds(300)
    let server = try await SyncServer.make(backend, configuration: configuration)
    try await server.running { url in
      let laptop = try await Replica.make("laptop", url: url, token: server.token)
      let transport = HTTPSyncTransport(baseURL: url, token: server.token)
      let syncs = Mutex(0)
      let watch = Task {
        try await laptop.client(transport).watch(transport) { report in
          if case .synced = report { syncs.withLock { $0 += 1 } }
        }
      }
      defer { watch.cancel() }
      try await eventually { syncs.withLock { $0 } >= 1 }

      let read = try await server.store.createHabit(
        Habit(id: UUID(), name: "Read", createdDay: day("2026-03-01")), for: server.user.id)
      try await eventually { try await laptop.store.habits(for: laptop.user.id, includingArchived: true).map(\.id) == [read.id] }

      try await laptop.store.setDay(day("2026-03-07"), of: read.id, to: .done, note: nil, for: laptop.user.id)
      try await eventually { try await server.store.entries(of: read.id, for: server.user.id).map(\.day) == [day("2026-03-07")] }
    }
  }

  /// Opened without a cursor the stream first says where the feed is; then each move past
  /// it; a stream opened again from an older cursor, or with it as `Last-Event-ID`, says at
  /// once that it moved.
  @Test(.timeLimit(.minutes(1)), arguments: ServerBackend.all)
  func theStreamSaysWhereTheFeedIsThenEachMovePastIt(_ backend: ServerBackend) async throws {
    let server = try await SyncServer.make(backend)
    try await server.running { url in
      let transport = HTTPSyncTransport(baseURL: url, token: server.token)
      var events = transport.live(after: nil).makeAsyncIterator()
      let ready = try await nextCursor(&events)
      _ = try await server.store.createHabit(
        Habit(id: UUID(), name: "Read", createdDay: day("2026-03-01")), for: server.user.id)
      let head = try await server.store.revision(for: server.user.id).head
      let changed = try await nextCursor(&events)
      #expect(SyncCursor(changed)?.position == head)
      #expect(try #require(SyncCursor(ready)).position < head)

      var resumed = transport.live(after: ready).makeAsyncIterator()
      #expect(try await nextCursor(&resumed) == changed)

      // What a browser's EventSource reads: the first event's name says which it was.
      #expect(try await openingEvent(url, token: server.token, cursor: nil).contains("event: ready\n"))
      #expect(try await openingEvent(url, token: server.token, cursor: ready).contains("event: changed\n"))

      // A reconnecting EventSource's `Last-Event-ID` is taken before `cursor`, an empty one
      // counts as none, and a cursor the server never gave is refused even beside a good one.
      let byHeader = try await openingEvent(url, token: server.token, cursor: changed, lastEventID: ready)
      #expect(byHeader.contains("event: changed\n") && byHeader.contains("id: \(changed)\n"))
      #expect(try await openingEvent(url, token: server.token, cursor: nil, lastEventID: "").contains("event: ready\n"))
      let bad = "not-a-cursor"
      for lastEventID in [nil, "", ready] {
        let refused = try await openingResponse(url, token: server.token, cursor: bad, lastEventID: lastEventID)
        #expect(refused.status.code == 422, "Last-Event-ID \(lastEventID ?? "absent")")
        let body = String(buffer: try await refused.body.collect(upTo: 1 << 16))
        #expect(body.contains("'\(bad)' is not a cursor this server gave out"), "\(body)")
      }
      let badHeader = try await openingResponse(url, token: server.token, cursor: ready, lastEventID: bad)
      #expect(badHeader.status.code == 422)
    }
  }

  private func openingResponse(
    _ url: String, token: String, cursor: String?, lastEventID: String? = nil
  ) async throws -> HTTPClientResponse {
    var request = HTTPClientRequest(url: url + "/api/v1/sync/live" + (cursor.map { "?cursor=\($0)" } ?? ""))
    request.headers.add(name: "Authorization", value: "Bearer \(token)")
    if let lastEventID { request.headers.add(name: "Last-Event-ID", value: lastEventID) }
    return try await HTTPClient.shared.execute(request, timeout: .seconds(30))
  }

  /// The stream's first event, read raw.
  private func openingEvent(
    _ url: String, token: String, cursor: String?, lastEventID: String? = nil
  ) async throws -> String {
    let response = try await openingResponse(url, token: token, cursor: cursor, lastEventID: lastEventID)
    var text = ""
    for try await buffer in response.body {
      text += String(buffer: buffer)
      if text.contains("data: ") && text.hasSuffix("\n\n") { break }
    }
    return text
  }

  /// A quiet stream gets heartbeats; a `tally mark` run beside an SQLite server (another
  /// connection, which names no user) still reaches it; past the limit a stream is refused.
  @Test(.timeLimit(.minutes(1))) func heartbeatsAnotherProcesssWriteAndTheLimit() async throws {
    var configuration = ServerConfiguration()
    configuration.live.heartbeat = .milliseconds(200)
    configuration.live.catchUp = .milliseconds(50)
    configuration.live.streamsPerUser = 1
    let server = try await SyncServer.make(.sqlite, configuration: configuration)
    try await server.running { url in
      let transport = HTTPSyncTransport(baseURL: url, token: server.token)
      let head = try await server.store.revision(for: server.user.id).head
      let cursor = SyncCursor(position: head, user: server.user.id, server: try await server.store.syncDevice())
      var events = transport.live(after: cursor.description).makeAsyncIterator()
      #expect(try await events.next() == .quiet)

      await #expect {
        for try await _ in transport.live(after: nil) {}
      } throws: { error in
        (error as? SyncTransportError)?.status == 429
      }

      let path = try #require((server.store as? SQLiteStore)?.database.path)
      let beside = SQLiteStore(try AppDatabase.open(at: path))
      _ = try await beside.createHabit(Habit(id: UUID(), name: "Run", createdDay: day("2026-03-01")), for: server.user.id)
      let moved = try await beside.syncHead(for: server.user.id)
      var told: String?
      while let event = try await events.next() {
        if case .moved(let cursor) = event {
          told = cursor
          break
        }
      }
      #expect(told.flatMap(SyncCursor.init)?.position == moved)
    }
  }

  private func nextCursor(_ events: inout AsyncThrowingStream<LiveEvent, any Error>.Iterator) async throws -> String {
    while let event = try await events.next() {
      if case .moved(let cursor) = event { return cursor }
    }
    throw SyncTransportError(status: nil, message: "the stream ended", retryable: false)
  }
}

