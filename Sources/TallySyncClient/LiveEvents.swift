import Foundation

/// What a live stream says (docs/sync.md "Live changes").
public enum LiveEvent: Sendable, Equatable {
  /// The account's feed is at `cursor`: past the replica's cursor, or (`ready`, on a stream
  /// opened without one) where it stands.
  case moved(cursor: String)
  /// A heartbeat: the stream is alive and nothing moved.
  case quiet
}

/// Reads server-sent events (the WHATWG `text/event-stream` format) as they arrive in pieces:
/// fields until a blank line make an event; a comment alone is a heartbeat. Lines are bounded,
/// so a server that never ends one cannot grow the buffer without end.
public struct LiveEventParser: Sendable {
  public static let maxLine = 4096

  private var line: [UInt8] = []
  private var name = ""
  private var id: String?
  private var sawComment = false

  public init() {}

  public struct LineTooLong: Error, CustomStringConvertible {
    public var description: String { "the server sent a line of over \(LiveEventParser.maxLine) bytes" }
  }

  /// The events the bytes complete.
  public mutating func feed(_ bytes: some Sequence<UInt8>) throws -> [LiveEvent] {
    var events: [LiveEvent] = []
    for byte in bytes {
      if byte == UInt8(ascii: "\n") {
        if let event = take(String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line[...], as: UTF8.self)) {
          events.append(event)
        }
        line.removeAll(keepingCapacity: true)
      } else {
        guard line.count < Self.maxLine else { throw LineTooLong() }
        line.append(byte)
      }
    }
    return events
  }

  private mutating func take(_ text: String) -> LiveEvent? {
    guard !text.isEmpty else { return dispatch() }
    if text.hasPrefix(":") {
      sawComment = true
      return nil
    }
    let (field, value) = text.firstIndex(of: ":").map { colon in
      (String(text[..<colon]), String(text[text.index(after: colon)...]).trimmingPrefix(" "))
    } ?? (text, "")
    switch field {
    case "event": name = String(value)
    case "id": id = String(value)
    default: break
    }
    return nil
  }

  private mutating func dispatch() -> LiveEvent? {
    defer {
      name = ""
      id = nil
      sawComment = false
    }
    if (name == "changed" || name == "ready"), let id { return .moved(cursor: id) }
    return sawComment ? .quiet : nil
  }
}
