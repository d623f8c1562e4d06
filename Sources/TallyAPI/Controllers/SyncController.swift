import Foundation
import Hummingbird
import NIOCore
import TallyCore
import TallyHTTP
import TallyStore
import TallySync

/// The sync protocol (docs/sync.md): a device pulls the account's changes after its cursor,
/// page by page, and pushes batches of its own, each applied all or nothing.
struct SyncController {
  let services: AppServices

  func addRoutes(to group: RouterGroup<AppRequestContext>) {
    group.get("sync", use: pull)
    group.post("sync", use: push)
    group.get("journal/{day}/revisions", use: revisions)
  }

  /// The texts of a journal day that merges replaced, oldest first (SPEC 11).
  @Sendable func revisions(_ request: Request, context: AppRequestContext) async throws
    -> JSONResponse<[JournalRevision]>
  {
    let user = try context.requireUser()
    let day = try context.parameters.requireDay("day")
    return JSONResponse(try await services.store.journalRevisions(on: day, for: user.id))
  }

  /// `cursor` (none: from the start) and `limit` (entities per page, 1–`maxPage`).
  /// The page is written by the store, by hand: a first pull is hundreds of thousands of changes.
  @Sendable func pull(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let limits = services.configuration.sync
    let limit = try request.uri.queryParameters.int("limit", in: 1...limits.maxPage) ?? 1_000
    let server = try await services.syncDevice.id(in: services.store)
    let after = try SyncCursor.position(request.uri.queryParameters.get("cursor"), user: user.id, server: server)
    let text: String
    if try await services.store.heardHead(for: user.id) <= after {
      // Nothing new, answered from the head this process knows: most polls are this one.
      let cursor = SyncCursor(position: after, user: user.id, server: server)
      text = SyncJSONText.pull(SyncPullResponse(changes: [], cursor: cursor.description, more: false))
    } else {
      text = try await services.store.syncPullText(for: user.id, after: after, limit: limit)
    }
    return Response(
      status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
      body: .init(byteBuffer: ByteBuffer(string: text)))
  }

  /// The answer is sent only after the batch is committed.
  @Sendable func push(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<SyncPushResponse> {
    let user = try context.requireUser()
    let data = try await request.bodyData(limit: services.configuration.maxSyncPushSize)
    let batch: SyncPushRequest
    do {
      batch = try Self.decoder.decode(SyncPushRequest.self, from: data)
    } catch let error as DecodingError {
      throw Problem(
        .unprocessableContent, "The push is wrong at \(DecodingErrorText.describe(error)). Nothing was applied.",
        field: DecodingErrorText.path(error))
    } catch {
      throw Problem(.badRequest, "The push is not valid JSON. Nothing was applied.")
    }
    let report = try await services.store.applyPush(
      batch, for: user.id, now: services.clock(), limits: services.configuration.sync)
    return JSONResponse(report)
  }

  private static let decoder = JSONDecoder()
}
