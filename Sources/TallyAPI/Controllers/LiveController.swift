import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ServiceLifecycle
import TallyHTTP
import TallyStore
import TallySync

/// Live changes (docs/sync.md "Live changes"): one long-lived response per device, a stream of
/// server-sent events that says each time the account's feed moves past the device's cursor.
/// The device then pulls as it always does; the stream carries no data of its own.
struct LiveController {
  let services: AppServices
  static let path = "sync/live"

  func addRoutes(to group: RouterGroup<AppRequestContext>) {
    group.get(.init(stringLiteral: Self.path), use: live)
  }

  /// `cursor` (or `Last-Event-ID`, which a browser's EventSource sends when it reconnects,
  /// taken first unless empty) is where the device is. Without one, the stream first tells
  /// the current cursor (`ready`); then `changed` each time the feed moves past what it last
  /// told, and a comment line every heartbeat.
  @Sendable func live(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser().id
    let store = services.store
    let server = try await services.syncDevice.id(in: store)
    let cursor = request.uri.queryParameters.get("cursor").map { String($0) }
    let resumed = request.headers[Self.lastEventID].flatMap { $0.isEmpty ? nil : $0 }
    // Both are checked, so a bad cursor is refused even beside a header that names a good one.
    let asked = try SyncCursor.position(cursor, user: user, server: server)
    let after = try resumed.map { try SyncCursor.position($0, user: user, server: server) } ?? asked
    let given = resumed ?? cursor
    let settings = services.configuration.live
    let limits = FeedHeads.Limits(perUser: settings.streamsPerUser, total: settings.streams)
    guard store.feedHeads.hasRoom(for: user, limits: limits) else {
      throw Problem(
        .tooManyRequests,
        "Too many live streams are open for this account (at most \(settings.streamsPerUser)): close a page "
          + "or stop a 'tally sync --watch'.")
    }
    return Response(
      status: .ok,
      headers: [
        .contentType: "text/event-stream", .cacheControl: "no-store",
        // nginx would otherwise hold the events back to fill its buffer.
        Self.accelBuffering: "no",
      ],
      body: ResponseBody { writer in
        // Streams opened at the same moment may pass the check above together: the last end at once.
        guard let subscription = store.feedHeads.subscribe(user, limits: limits) else {
          try await writer.finish(nil)
          return
        }
        defer { subscription.stop() }
        // Read after subscribing, so a commit in between is heard, not missed.
        let head = try await store.heardHead(for: user)
        var told = after
        var opening = "retry: 2000\n\n"
        if given == nil {
          opening += Self.event("ready", position: head, user: user, server: server)
          told = head
        } else if head > after {
          opening += Self.event("changed", position: head, user: user, server: server)
          told = head
        }
        try await writer.write(ByteBuffer(string: opening))
        // A stream never ends by itself: a server shutting down ends it, and the device
        // reconnects to another instance or after the restart.
        try await withGracefulShutdownHandler {
          for await moved in subscription.moves {
            let head: Int64
            if let moved { head = moved } else { head = try await store.heardHead(for: user) }
            if head > told {
              told = head
              try await writer.write(
                ByteBuffer(string: Self.event("changed", position: head, user: user, server: server)))
            } else if moved == nil {
              try await writer.write(ByteBuffer(string: ":\n\n"))
            }
          }
        } onGracefulShutdown: {
          subscription.stop()
        }
        try await writer.finish(nil)
      })
  }

  static let lastEventID = HTTPField.Name("Last-Event-ID")!
  static let accelBuffering = HTTPField.Name("X-Accel-Buffering")!

  static func event(_ name: String, position: Int64, user: UUID, server: UUID) -> String {
    let cursor = SyncCursor(position: position, user: user, server: server).description
    var data = "{\"cursor\":"
    SyncJSONText.append(cursor, to: &data)
    return "id: \(cursor)\nevent: \(name)\ndata: \(data)}\n\n"
  }
}
