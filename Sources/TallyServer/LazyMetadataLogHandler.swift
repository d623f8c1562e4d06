import Logging

/// swift-log's `StreamLogHandler` writes its metadata out as text whenever the metadata
/// changes, and the server changes it on every request (Hummingbird's request id, then the
/// client): 4 % of an empty poll's server time, for lines that are seldom written. This one
/// keeps the metadata as it is and hands it to the stream handler with each line logged,
/// which then writes exactly what it would have.
struct LazyMetadataLogHandler: LogHandler {
  private var lines: StreamLogHandler
  var metadata: Logger.Metadata = [:]

  init(_ lines: StreamLogHandler) {
    self.lines = lines
  }

  /// Lines to standard error, as swift-log's default handler writes them.
  init(label: String) {
    self.init(StreamLogHandler.standardError(label: label))
  }

  var logLevel: Logger.Level {
    get { lines.logLevel }
    set { lines.logLevel = newValue }
  }

  var metadataProvider: Logger.MetadataProvider? {
    get { lines.metadataProvider }
    set { lines.metadataProvider = newValue }
  }

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    var event = event
    if !metadata.isEmpty {
      event.metadata = metadata.merging(event.metadata ?? [:]) { _, explicit in explicit }
    }
    lines.log(event: event)
  }
}
