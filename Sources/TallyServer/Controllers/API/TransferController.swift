import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import TallyCore
import TallyStore
import TallyWire

/// Export and import: the same full-fidelity JSON document `tally export` writes and
/// `tally import` reads, so data moves freely between a terminal and a server.
struct TransferController {
  let services: AppServices

  func addRoutes(to group: RouterGroup<AppRequestContext>) {
    group.get("export", use: export)
    group.post("import", use: importDocument)
  }

  /// Everything the signed-in user has, read in one transaction.
  @Sendable func export(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let snapshot = try await services.store.snapshot(of: user.id)
    if try request.uri.queryParameters.exportFormat() == .ics {
      return exportCompletions(snapshot)
    }
    let data = try WireJSON.prettyEncoder.encode(ExportDocument(user: user, snapshot: snapshot))
    return Response(
      status: .ok,
      headers: [
        .contentType: "application/json; charset=utf-8",
        .contentDisposition: "attachment; filename=\"tally-export.json\"",
      ],
      body: .init(byteBuffer: ByteBuffer(bytes: data)))
  }

  struct ImportedJSON: Encodable, Sendable {
    var habits: Int
    var entries: Int
    var journalEntries: Int
    var chatMessages: Int
    var shows: Int
    var episodes: Int
    var prices: Int
  }

  /// Restores an export into the signed-in user, who must have no habits, journal, chat or
  /// shows yet (an import never merges). The whole document is checked before the one
  /// transaction that writes it; a refused import changes nothing.
  @Sendable func importDocument(_ request: Request, context: AppRequestContext) async throws
    -> JSONResponse<ImportedJSON>
  {
    let user = try context.requireUser()
    let data = try await request.bodyData(limit: services.configuration.maxImportSize)
    let document: ExportDocument
    do {
      document = try WireJSON.decoder.decode(ExportDocument.self, from: data)
    } catch let error as DecodingError {
      throw Problem(
        .unprocessableContent, "The document is not a Tally export: \(DecodingErrorText.describe(error)).",
        field: DecodingErrorText.path(error))
    }
    let snapshot = try document.restorable().snapshot
    do {
      _ = try await services.store.restore(snapshot, into: .emptyUser(user.id))
    } catch StoreError.conflict(let what) {
      throw Problem(.conflict, "The export cannot be imported here: \(what).")
    }
    return JSONResponse(
      ImportedJSON(
        habits: snapshot.habits.count, entries: snapshot.habits.reduce(0) { $0 + $1.entries.count },
        journalEntries: snapshot.journal.count, chatMessages: snapshot.chat.count, shows: snapshot.shows.count,
        episodes: snapshot.episodes.count, prices: snapshot.prices.count),
      status: .created)
  }
}
