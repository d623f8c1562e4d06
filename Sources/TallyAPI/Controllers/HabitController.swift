import Foundation
import HTTPTypes
import Hummingbird
import TallyCore
import TallyHTTP
import TallyStore
import TallyWire

/// The signed-in user's habits: list (optionally with statistics and recent entries), add,
/// read, change, archive, bring back, delete and reorder. The rules are `tally habit`'s.
struct HabitController {
  let services: AppServices

  /// The most days of entries a listing carries: ten years.
  static let entryDays = 1...3660
  static let defaultEntryDays = 365

  struct CreateBody: JSONBody {
    var name: String
    var icon: String?
    var color: HexColor?
    var group: String?
    var createdDay: Day?
    var frequency: Frequency?
    var reminder: Reminder?
    var measure: Measure?
    var description: String?

    static let fields: Set<String> = [
      "name", "icon", "color", "group", "createdDay", "frequency", "reminder", "measure", "description",
    ]
    static let textLimits = HabitController.textLimits
    static let wholeNumberRanges = HabitController.wholeNumberRanges
    static let nullableFields: Set<String> = ["icon", "group", "measure", "description"]
  }

  static let wholeNumberRanges = [
    "frequency.targetPerWeek": Frequency.weeklyTargets, "frequency.times": 1...(Frequency.blockLengths.upperBound - 1),
    "frequency.days": Frequency.blockLengths, "frequency.timesPerMonth": Frequency.monthlyTargets,
    "reminder.everyHours": Reminder.intervalHours,
  ]

  static let textLimits = [
    "name": Habit.nameLengths.upperBound, "group": Habit.groupLengths.upperBound,
    "description": Habit.descriptionLengths.upperBound,
  ]

  /// Only the fields sent change; `icon` and `group` are removed by `null` or blank text.
  struct PatchBody: JSONBody {
    var name: String?
    var icon: String??
    var color: HexColor?
    var group: String??
    var createdDay: Day?
    var frequency: Frequency?
    var reminder: Reminder?
    var measure: Measure??
    var description: String??

    private enum CodingKeys: String, CodingKey, CaseIterable {
      case name, icon, color, group, createdDay, frequency, reminder, measure, description
    }

    static let fields = Set(CodingKeys.allCases.map(\.rawValue))
    static let textLimits = HabitController.textLimits
    static let wholeNumberRanges = HabitController.wholeNumberRanges
    static let nullableFields: Set<String> = ["icon", "group", "measure", "description"]

    init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      name = try c.decodeIfSent(String.self, forKey: .name)
      icon = try c.decodeNullable(String.self, forKey: .icon)
      color = try c.decodeIfSent(HexColor.self, forKey: .color)
      group = try c.decodeNullable(String.self, forKey: .group)
      createdDay = try c.decodeIfSent(Day.self, forKey: .createdDay)
      frequency = try c.decodeIfSent(Frequency.self, forKey: .frequency)
      reminder = try c.decodeIfSent(Reminder.self, forKey: .reminder)
      measure = try c.decodeNullable(Measure.self, forKey: .measure)
      description = try c.decodeNullable(String.self, forKey: .description)
    }
  }

  struct OrderBody: JSONBody {
    var ids: [UUID]
    static let fields: Set<String> = ["ids"]
  }

  /// A habit in a listing: its fields, then what `include` asked for.
  struct ListItem: Encodable, Sendable {
    let habit: HabitJSON
    let statistics: StatsJSON?
    let entries: [HabitEntry]?

    private enum CodingKeys: String, CodingKey { case statistics, entries }

    func encode(to encoder: any Encoder) throws {
      try habit.encode(to: encoder)
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encodeIfPresent(statistics, forKey: .statistics)
      try c.encodeIfPresent(entries, forKey: .entries)
    }
  }

  func addRoutes(to group: RouterGroup<AppRequestContext>) {
    group.get("habits", use: list)
    group.post("habits", use: create)
    group.put("habits/order", use: reorder)
    group.get("habits/{id}", use: show)
    group.patch("habits/{id}", use: change)
    group.delete("habits/{id}", use: delete)
    group.post("habits/{id}/archive", use: archive)
    group.post("habits/{id}/unarchive", use: unarchive)
  }

  /// Two store calls, however many habits: the habits, then one read of every
  /// habit's entries (all of them for statistics, else only the window asked for).
  @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let query = request.uri.queryParameters
    let archived = try query.bool("archived") ?? false
    let include = try query.words("include", known: ["statistics", "entries"])
    let days = try query.int("days", in: Self.entryDays) ?? Self.defaultEntryDays
    let (calendar, today) = try services.calendar(for: user)
    // Read before the data: see ResponseCache.
    let revision = try await services.store.revision(for: user.id)
    let key = "\(user.id.storeText)|\(today)|\(request.uri)"
    return try await services.cache.response(for: key, revision: revision, request: request) {
      try WireJSON.encoder.encode(
        try await listItems(
          user: user, archived: archived, include: include, days: days, calendar: calendar, today: today,
          revision: revision))
    }
  }

  private func listItems(
    user: User, archived: Bool, include: Set<String>, days: Int, calendar: DayCalendar, today: Day,
    revision: StoreRevision
  ) async throws -> [ListItem] {
    guard !include.isEmpty else {
      return try await services.store.habits(for: user.id, includingArchived: archived).map {
        ListItem(habit: HabitJSON($0), statistics: nil, entries: nil)
      }
    }
    let window = today.adding(days: 1 - days)...today
    let wantsStatistics = include.contains("statistics")
    let days = try await services.histories.read(for: user.id, from: services.store, at: revision)
    let habits = days.habits(includingArchived: archived)
    return habits.map { habit in
      let kept = days.days(of: habit.id)
      return ListItem(
        habit: HabitJSON(habit),
        statistics: wantsStatistics
          ? StatsJSON(
            RankedHabit(
              habit: habit,
              statistics: kept.statistics(of: habit, today: today, firstWeekday: calendar.firstWeekday)))
          : nil,
        entries: include.contains("entries") ? kept.entries(in: window) : nil)
    }
  }

  @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<HabitJSON> {
    let user = try context.requireUser()
    let body = try await request.decodeJSON(CreateBody.self, limit: services.configuration.maxBodySize)
    let today = try services.calendar(for: user).today
    let createdDay = body.createdDay ?? today
    try Self.checkCreatedDay(createdDay, today: today)
    let name = try Habit.validName(body.name)
    let existing = try await services.store.habits(for: user.id, includingArchived: true)
    try Self.checkNameFree(name, among: existing)
    let habit = try Habit(
      id: UUID(), name: name, icon: body.icon, color: body.color ?? Habit.defaultColor, group: body.group,
      createdDay: createdDay, frequency: body.frequency ?? .daily, reminder: body.reminder ?? .none,
      measure: body.measure, description: body.description)
    let created = try await Self.namingTheField { try await services.store.appendHabit(habit, for: user.id) }
    return JSONResponse(
      HabitJSON(created), status: .created, headers: [.location: "/api/v1/habits/\(created.id.storeText)"])
  }

  @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<HabitJSON> {
    let user = try context.requireUser()
    return JSONResponse(HabitJSON(try await services.store.habit(id: try context.parameters.requireID("id"), for: user.id)))
  }

  @Sendable func change(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<HabitJSON> {
    let user = try context.requireUser()
    let id = try context.parameters.requireID("id")
    let body = try await request.decodeJSON(PatchBody.self, limit: services.configuration.maxBodySize)
    let habits = try await services.store.habits(for: user.id, includingArchived: true)
    guard var changed = habits.first(where: { $0.id == id }) else { throw StoreError.notFound(.habit(id)) }
    if let name = body.name {
      let newName = try Habit.validName(name)
      try Self.checkNameFree(newName, among: habits, renaming: id)
      changed.name = newName
    }
    if let icon = body.icon { changed.icon = try Habit.validIcon(icon) }
    if let color = body.color { changed.color = color }
    if let group = body.group { changed.group = try Habit.validGroup(group) }
    if let createdDay = body.createdDay {
      try Self.checkCreatedDay(createdDay, today: try services.calendar(for: user).today)
      changed.createdDay = createdDay
    }
    if let frequency = body.frequency { changed.frequency = frequency }
    if let reminder = body.reminder { changed.reminder = reminder }
    if let measure = body.measure { changed.measure = measure }
    if let description = body.description { changed.description = description }
    let valid = try changed.validated()
    let updated = try await Self.namingTheField { try await services.store.updateHabit(valid, for: user.id) }
    return JSONResponse(HabitJSON(updated))
  }

  /// Deletes the habit with every entry (SPEC 2).
  @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    try await services.store.deleteHabit(id: try context.parameters.requireID("id"), for: user.id)
    return Response(status: .noContent)
  }

  @Sendable func archive(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<HabitJSON> {
    try await setArchived(true, context: context)
  }

  @Sendable func unarchive(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<HabitJSON> {
    try await setArchived(false, context: context)
  }

  private func setArchived(_ archived: Bool, context: AppRequestContext) async throws -> JSONResponse<HabitJSON> {
    let user = try context.requireUser()
    let id = try context.parameters.requireID("id")
    return JSONResponse(HabitJSON(try await services.store.setArchived(archived, habit: id, for: user.id)))
  }

  /// The named habits first, in that order, the rest after them; answers every habit,
  /// archived ones included, in the new order.
  @Sendable func reorder(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<[HabitJSON]> {
    let user = try context.requireUser()
    let body = try await request.decodeJSON(OrderBody.self, limit: services.configuration.maxBodySize)
    do {
      return JSONResponse(try await services.store.reorderHabits(body.ids, for: user.id).map(HabitJSON.init))
    } catch StoreError.invalid(let error) {
      throw Problem(.unprocessableContent, "The ids \(error.rule).", field: "ids")
    }
  }

  // The shared rules, with the problem naming the body's field.
  private static func checkCreatedDay(_ day: Day, today: Day) throws {
    do {
      try HabitRules.checkCreatedDay(day, today: today)
    } catch {
      throw Problem(.unprocessableContent, "The \(error.field) \(error.rule).", field: "createdDay")
    }
  }

  /// A name a racing client took first is refused by the database's unique index; the answer
  /// is the check's own, field included.
  private static func namingTheField<T>(_ write: () async throws -> T) async throws -> T {
    do {
      return try await write()
    } catch let error as StoreError {
      guard case .conflict = error else { throw error }
      throw Problem(.conflict, error.description, field: "name")
    }
  }

  private static func checkNameFree(_ name: String, among habits: [Habit], renaming: UUID? = nil) throws {
    do {
      try HabitRules.checkNameFree(name, among: habits, renaming: renaming)
    } catch {
      throw Problem(.conflict, error.description, field: "name")
    }
  }
}
