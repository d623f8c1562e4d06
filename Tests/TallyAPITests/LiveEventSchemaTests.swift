import Foundation
import TallyServerTesting
import Testing

@testable import TallyAPI

/// Issue 60: the events `GET /api/v1/sync/live` writes are what the OpenAPI document says,
/// read field by field as an EventSource (and schemathesis) reads them.
@Suite struct LiveEventSchemaTests {
  /// The fields of each event in `stream`: `data` lines joined by line breaks, comments and
  /// events without data skipped.
  static func events(in stream: String) -> [[String: String]] {
    stream.components(separatedBy: "\n\n").compactMap { block in
      var fields: [String: String] = [:]
      for line in block.split(separator: "\n", omittingEmptySubsequences: true) where !line.hasPrefix(":") {
        let parts = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(parts[0])
        var value = parts.count > 1 ? String(parts[1]) : ""
        if value.hasPrefix(" ") { value.removeFirst() }
        fields[name] = name == "data" && fields["data"] != nil ? fields["data"]! + "\n" + value : value
      }
      return fields["data"] == nil ? nil : fields
    }
  }

  @Test(arguments: ["ready", "changed"])
  func anEventIsTheDocumentedShape(name: String) throws {
    let stream = ": heartbeat\n\n" + LiveController.event(name, position: 42, user: UUID(), server: UUID())
    let events = Self.events(in: stream)
    #expect(events.count == 1)
    for event in events {
      let value = JSONValue.object(event.mapValues(JSONValue.string))
      #expect(SchemaCheck.violations(of: value, against: "SyncLiveEvent") == [])
      #expect(event["event"] == name)
    }
  }

  /// The check reads the data as JSON: a cursor sent as a bare string would fail it.
  @Test func dataThatIsNotTheDocumentedJSONFails() {
    let event = JSONValue.object(["event": .string("changed"), "id": .string("c"), "data": .string("\"c\"")])
    #expect(SchemaCheck.violations(of: event, against: "SyncLiveEvent") == ["$.data as JSON: c is not object"])
  }
}
