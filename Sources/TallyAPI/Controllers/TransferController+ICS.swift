import Foundation
import Hummingbird
import NIOCore
import TallyCore
import TallyHTTP
import TallyStore

/// `GET /api/v1/export?format=ics`: each completed day of each habit as an all-day event.
extension TransferController {
  enum ExportFormat: String {
    case json, csv, ics
  }

  func exportCompletions(_ snapshot: UserSnapshot) -> Response {
    let text = CalendarFeeds.completions(snapshot.habits.map { ($0.habit, $0.entries) }, stamp: services.clock())
    return Response(
      status: .ok,
      headers: [
        .contentType: "text/calendar; charset=utf-8",
        .contentDisposition: "attachment; filename=\"tally-completions.ics\"",
      ],
      body: .init(byteBuffer: ByteBuffer(string: text)))
  }
}

extension Parameters {
  /// `format`: json (the default), csv or ics.
  func exportFormat() throws -> TransferController.ExportFormat {
    guard let text = self.get("format") else { return .json }
    guard let format = TransferController.ExportFormat(rawValue: text) else {
      throw Problem(.badRequest, "The query parameter 'format' must be 'json', 'csv' or 'ics', not '\(text)'.", field: "format")
    }
    return format
  }
}
