import Foundation
import Hummingbird
import TallyCore
import TallyHTTP
import TallyStore
import TallyWire

/// When the user's habits' reminders fire next: what `tally reminders --json` prints.
struct ReminderController {
  let services: AppServices

  func addRoutes(to group: RouterGroup<AppRequestContext>) {
    group.get("reminders", use: list)
  }

  @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<[ReminderJSON]> {
    let user = try context.requireUser()
    let days = try request.uri.queryParameters.int("days", in: ReminderJSON.dayRange) ?? ReminderJSON.defaultDays
    let time = try services.time(for: user)
    let upcoming = try await ReminderJSON.upcoming(
      from: services.store, user: user.id, calendar: time.calendar, now: time.now, days: days)
    return JSONResponse(upcoming)
  }
}
