import Foundation
import Hummingbird
import TallyCore
import TallyHTTP
import TallyStore
import TallyWire

/// The Today view: what `tally today --json` prints, for a screen `width` points wide.
struct TodayController {
  let services: AppServices

  func addRoutes(to group: RouterGroup<AppRequestContext>) {
    group.get("today", use: show)
  }

  @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<TodayView> {
    let user = try context.requireUser()
    let query = request.uri.queryParameters
    let width = try query.points("width") ?? TodayView.defaultWidth
    let selected = try query.day("day")
    let time = try services.time(for: user)
    let view = try await TodayView.read(
      from: services.store, user: user, today: time.today, calendar: time.calendar, width: width,
      selectedDay: selected)
    return JSONResponse(view)
  }
}
