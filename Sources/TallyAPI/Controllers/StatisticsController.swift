import Foundation
import Hummingbird
import TallyCore
import TallyHTTP
import TallyStore
import TallyWire

/// Statistics and contribution grids: the figures `tally stats --json` and `tally grid --json`
/// print, computed by the same engine.
struct StatisticsController {
  let services: AppServices

  /// Weeks a grid may span: up to ten years; a year by default, as GitHub shows.
  static let weekCounts = 1...530
  static let defaultWeeks = 53

  func addRoutes(to group: RouterGroup<AppRequestContext>) {
    group.get("stats", use: allStatistics)
    group.get("habits/{id}/stats", use: statistics)
    group.get("grid", use: activityGrid)
    group.get("habits/{id}/grid", use: habitGrid)
  }

  /// Ranked (SPEC 4); archived habits only with `archived=true`.
  @Sendable func allStatistics(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<[StatsJSON]> {
    let user = try context.requireUser()
    let archived = try request.uri.queryParameters.bool("archived") ?? false
    let (calendar, today) = try services.calendar(for: user)
    let habits = try await services.store.habits(for: user.id, includingArchived: archived)
    let histories = try await services.store.histories(for: user.id)
    return JSONResponse(
      RankedHabit.ranking(habits, histories: histories, today: today, firstWeekday: calendar.firstWeekday)
        .map(StatsJSON.init))
  }

  @Sendable func statistics(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<StatsJSON> {
    let user = try context.requireUser()
    let (calendar, today) = try services.calendar(for: user)
    let (habit, history) = try await habitWithHistory(context, user: user)
    return JSONResponse(
      StatsJSON(
        RankedHabit(
          habit: habit,
          statistics: HabitStatistics(habit: habit, history: history, today: today, firstWeekday: calendar.firstWeekday))))
  }

  @Sendable func habitGrid(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<HabitGridJSON> {
    let user = try context.requireUser()
    let weeks = try request.uri.queryParameters.int("weeks", in: Self.weekCounts) ?? Self.defaultWeeks
    let (calendar, today) = try services.calendar(for: user)
    let (habit, history) = try await habitWithHistory(context, user: user)
    let grid = HabitGrid(habit: habit, history: history, today: today, firstWeekday: calendar.firstWeekday, weekCount: weeks)
    return JSONResponse(HabitGridJSON(grid, calendar: calendar, today: today))
  }

  /// Active habits only, as `tally grid` shows them.
  @Sendable func activityGrid(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<ActivityGridJSON> {
    let user = try context.requireUser()
    let weeks = try request.uri.queryParameters.int("weeks", in: Self.weekCounts) ?? Self.defaultWeeks
    let (calendar, today) = try services.calendar(for: user)
    let habits = try await services.store.habits(for: user.id, includingArchived: false)
    let histories = try await services.store.histories(for: user.id)
    let grid = ActivityGrid(
      habits: habits.map { ActivityGrid.Input(habit: $0, history: histories[$0.id] ?? HabitHistory([])) },
      today: today, firstWeekday: calendar.firstWeekday, weekCount: weeks)
    return JSONResponse(ActivityGridJSON(grid, calendar: calendar, today: today))
  }

  private func habitWithHistory(_ context: AppRequestContext, user: User) async throws -> (Habit, HabitHistory) {
    let id = try context.parameters.requireID("id")
    let habit = try await services.store.habit(id: id, for: user.id)
    let paused = try await services.store.pausedDays(of: id, for: user.id)
    return (habit, HabitHistory(try await services.store.entries(of: id, for: user.id)).pausing(paused))
  }
}
