import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import TallyCore
import TallyHeap
import TallyHTTP
import TallyImport
import TallySQLite
import TallyStore
import TallyWire

/// Export, import and backup: the same documents `tally export`, `tally import` and
/// `tally backup` read and write, so data moves freely between a terminal and a server.
struct TransferController {
  let services: AppServices

  func addRoutes(to group: RouterGroup<AppRequestContext>) {
    group.get("export", use: export)
    group.post("import", use: importFile)
    group.get("backup", use: backup)
  }

  /// Everything the signed-in user has, read in one transaction: `format=json` (the default,
  /// full fidelity), `format=csv` (habit entries) or `format=ics` (completed days).
  @Sendable func export(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let format = try request.uri.queryParameters.exportFormat()
    let snapshot = try await services.store.snapshot(of: user.id)
    let data: Data
    let type: String
    switch format {
    case .ics:
      return exportCompletions(snapshot)
    case .csv:
      data = Data(EntriesCSV.text(snapshot.habits.map { ($0.habit, $0.entries) }).utf8)
      type = "text/csv; charset=utf-8; header=present"
    case .json:
      data = try WireJSON.prettyEncoder.encode(ExportDocument(user: user, snapshot: snapshot))
      type = "application/json; charset=utf-8"
    }
    return Response(
      status: .ok,
      headers: [.contentType: type, .contentDisposition: "attachment; filename=\"tally-export.\(format.rawValue)\""],
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
    var pauses: Int
  }

  /// The body is the file; its kind is told from what it holds unless `format` names it. A
  /// Tally export (`json`) is restored into the signed-in user, who must hold nothing yet
  /// (201, the counts). Other formats are merged into the user's habits and journal (200, the
  /// ``ImportSummary``, which names the format). `dryRun=true` checks and counts everything
  /// and writes nothing (200).
  @Sendable func importFile(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    do {
      let response = try await importFile(request, user: user, context: context)
      await releaseMemory()
      return response
    } catch {
      await releaseMemory()
      throw error
    }
  }

  /// glibc keeps what an import freed in its arenas, and a server that imported 50 MB stayed at
  /// ~300 MiB resident (issue 17): so it is trimmed now, not at the next quiet moment, which a
  /// busy server never has. The store's caches first, so the pages they free go back too.
  private func releaseMemory() async {
    await services.store.releaseMemory()
    tally_heap_trim()
  }

  private func importFile(_ request: Request, user: User, context: AppRequestContext) async throws -> Response {
    let dryRun = try request.uri.queryParameters.bool("dryRun") ?? false
    var format: ImportFormat?
    if let text = request.uri.queryParameters.get("format") {
      guard let known = ImportFormat(name: text) else {
        throw Problem(
          .badRequest,
          "The query parameter 'format' must be one of \(ImportFormat.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")), not '\(text)'.",
          field: "format")
      }
      format = known
    }
    let data = try await request.bodyData(limit: services.configuration.maxImportSize)
    let (calendar, today) = try services.calendar(for: user)
    // Databases and zips are read from a file: a temporary one, removed at once.
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("tally-import-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    do {
      try data.write(to: URL(fileURLWithPath: path))
    } catch {
      throw Problem(.internalServerError, "The server could not keep the file to read it. Nothing was imported.")
    }
    let history: ImportedHistory
    do {
      let found = try format ?? Importer.detect(path: path, data: data)
      if found == .json {
        return try await restore(data, user: user, dryRun: dryRun).response(from: request, context: context)
      }
      history = try Importer.read(found, path: path, data: data, today: today, timeZone: calendar.timeZone)
    } catch let error as ImportError {
      throw Problem(.unprocessableContent, "The file cannot be imported. \(error.description).")
    }
    let summary: ImportSummary
    do {
      summary = try await ImportPlanner.run(history, store: services.store, user: user.id, today: today, dryRun: dryRun)
    } catch let error as ImportError {
      throw Problem(.unprocessableContent, "The file cannot be imported. \(error.description).")
    } catch StoreError.conflict(let what) {
      throw Problem(.conflict, "The file cannot be imported here: \(what).")
    }
    return try JSONResponse(summary).response(from: request, context: context)
  }

  func restore(_ data: Data, user: User, dryRun: Bool) async throws -> JSONResponse<ImportedJSON> {
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
      if dryRun {
        guard try await services.store.habits(for: user.id, includingArchived: true).isEmpty,
          try await services.store.journalEntries(in: Day.allTime, for: user.id).isEmpty,
          try await services.store.chatMessages(in: Day.allTime, for: user.id).isEmpty,
          try await services.store.shows(for: user.id).isEmpty
        else { throw StoreError.userHasData(user) }
      } else {
        _ = try await services.store.restore(snapshot, into: .emptyUser(user.id))
      }
    } catch StoreError.conflict(let what) {
      throw Problem(.conflict, "The export cannot be imported here: \(what).")
    }
    return JSONResponse(
      ImportedJSON(
        habits: snapshot.habits.count, entries: snapshot.habits.reduce(0) { $0 + $1.entries.count },
        journalEntries: snapshot.journal.count, chatMessages: snapshot.chat.count, shows: snapshot.shows.count,
        episodes: snapshot.episodes.count, prices: snapshot.prices.count, pauses: snapshot.pauses.count),
      status: dryRun ? .ok : .created)
  }

  /// The whole database, every user's data, as one SQLite file made with SQLite's online
  /// backup: consistent while others write. The owner's alone, since it holds everyone's.
  @Sendable func backup(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    guard try await services.store.ownerID() == user.id else { throw Problem.ownerOnly }
    guard let database = (services.store as? SQLiteStore)?.database else {
      throw Problem(.notFound, "This server keeps no database file to back up.")
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-backup-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("tally.sqlite").path
    try await Self.copy(database, to: path)
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let (_, today) = try services.calendar(for: user)
    return Response(
      status: .ok,
      headers: [
        .contentType: "application/vnd.sqlite3",
        .contentDisposition: "attachment; filename=\"tally-backup-\(today).sqlite\"",
      ],
      body: .init(byteBuffer: ByteBuffer(bytes: data)))
  }

  /// The backup blocks while it copies, so it runs off the event loop's threads.
  @inline(never)
  static func copy(_ database: AppDatabase, to path: String) async throws {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
      DispatchQueue.global().async {
        do {
          try database.backup(to: path)
          continuation.resume()
        } catch {
          continuation.resume(throwing: error)
        }
      }
    }
  }
}
