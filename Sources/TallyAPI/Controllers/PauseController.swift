import Foundation
import Hummingbird
import TallyCore
import TallyHTTP
import TallyStore

/// Pauses of one habit or of all of them (a vacation): list, add, change, delete, and resume
/// (end the pauses that cover a day, or start after it). The rules are `tally pause`'s.
struct PauseController {
  let services: AppServices

  /// A new pause, or a pause's every field when it is replaced.
  struct PauseBody: JSONBody {
    /// `null` or absent: every habit.
    var habitId: UUID?
    var from: Day
    /// `null` or absent: until resumed.
    var until: Day?

    static let fields: Set<String> = ["habitId", "from", "until"]
    static let nullableFields: Set<String> = ["habitId", "until"]
  }

  struct ResumeBody: JSONBody {
    var habitId: UUID?
    /// The first day no longer paused; today when absent.
    var on: Day?

    static let fields: Set<String> = ["habitId", "on"]
    static let nullableFields: Set<String> = ["habitId", "on"]
  }

  /// What a resume changed.
  struct Resumed: Encodable, Sendable {
    var ended: [Pause]
    var deleted: [UUID]
  }

  func addRoutes(to group: RouterGroup<AppRequestContext>) {
    group.get("pauses", use: list)
    group.post("pauses", use: create)
    group.post("pauses/resume", use: resume)
    group.put("pauses/{id}", use: replace)
    group.delete("pauses/{id}", use: delete)
  }

  @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<[Pause]> {
    let user = try context.requireUser()
    return JSONResponse(try await services.store.pauses(for: user.id))
  }

  @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<Pause> {
    let user = try context.requireUser()
    let body = try await request.decodeJSON(PauseBody.self, limit: services.configuration.maxBodySize)
    let pause = try Pause(id: UUID(), habitID: body.habitId, from: body.from, until: body.until)
    let saved = try await services.store.savePause(pause, for: user.id)
    return JSONResponse(saved, status: .created, headers: [.location: "/api/v1/pauses/\(saved.id.storeText)"])
  }

  @Sendable func replace(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<Pause> {
    let user = try context.requireUser()
    let id = try context.parameters.requireID("id")
    let body = try await request.decodeJSON(PauseBody.self, limit: services.configuration.maxBodySize)
    guard try await services.store.pauses(for: user.id).contains(where: { $0.id == id }) else {
      throw StoreError.notFound(.pause(id))
    }
    let pause = try Pause(id: id, habitID: body.habitId, from: body.from, until: body.until)
    return JSONResponse(try await services.store.savePause(pause, for: user.id))
  }

  @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    try await services.store.deletePause(id: try context.parameters.requireID("id"), for: user.id)
    return Response(status: .noContent)
  }

  @Sendable func resume(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<Resumed> {
    let user = try context.requireUser()
    let body = try await request.decodeJSON(ResumeBody.self, limit: services.configuration.maxBodySize)
    let day = try body.on ?? services.calendar(for: user).today
    if let habit = body.habitId { _ = try await services.store.habit(id: habit, for: user.id) }
    let (ended, deleted) = try await services.store.resume(habit: body.habitId, on: day, for: user.id)
    return JSONResponse(Resumed(ended: ended, deleted: deleted))
  }
}
