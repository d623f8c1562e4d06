import Logging
import Synchronization
import Testing

@testable import TallyServer

@Suite struct LazyMetadataLogHandlerTests {
  /// The same logging through both handlers writes the same lines (the timestamp aside).
  @Test func linesAreWhatTheStreamHandlerWrites() {
    let (lazy, stream) = (Lines(), Lines())
    var loggers = [
      Logger(label: "tally") { LazyMetadataLogHandler(StreamLogHandler(label: $0, stream: lazy, metadataProvider: nil)) },
      Logger(label: "tally") { StreamLogHandler(label: $0, stream: stream, metadataProvider: nil) },
    ]
    for index in loggers.indices {
      loggers[index].logLevel = .debug
      loggers[index].info("before any metadata")
      loggers[index][metadataKey: "hb.request.id"] = "42"
      loggers[index][metadataKey: "client"] = .string("192.0.2.7")
      loggers[index].debug("with it")
      loggers[index].trace("under the level")
      loggers[index].error("request failed", metadata: ["client": "explicit wins", "path": "/api/v1/sync"])
      loggers[index][metadataKey: "client"] = nil
      loggers[index].warning("one key gone")
    }
    #expect(lazy.written.count == 4)
    #expect(lazy.written == stream.written)
    #expect(lazy.written[2].contains("client=explicit wins hb.request.id=42 path=/api/v1/sync"), "\(lazy.written)")
  }
}

/// What a handler wrote, each line without its leading timestamp.
private final class Lines: TextOutputStream, Sendable {
  private let lines = Mutex<[String]>([])

  var written: [String] { lines.withLock { $0 } }

  func write(_ text: String) {
    lines.withLock { $0.append(String(text.drop { $0 != " " })) }
  }
}
