import Foundation
import Hummingbird
import TallyCore
import TallyHTTP
import TallyLocalization
import TallyStore

/// The habit screens: the cards (grouped, with quick completion, reorder and archive), a
/// habit's page with its grid, and the add / edit form. Every action is a form post.
struct HabitPages {
  let services: AppServices

  static let widthCookie = "tally_grid_width"
  static let defaultWidth = 343.0

  /// The grid's width: asked for or measured before, else the card's width on the screen every
  /// page remembers (app.css: `main` at most 1120 px with 16 px padding, a card's 1 px border
  /// and 16 px padding), so a first visit is drawn once; without either, a phone's.
  static func gridWidth(of request: Request) throws -> Double {
    let screen = request.cookies[TodayPages.widthCookie].flatMap { Int($0.value) }
    let card = screen.map { min($0, 1120) - 66 }.flatMap { TodayPages.widths.contains($0) ? $0 : nil }
    return try TodayPages.width(of: request, cookie: widthCookie, default: card.map(Double.init) ?? defaultWidth)
  }

  struct ListModel: Sendable {
    struct Group: Sendable {
      let name: String
      var habits: [HabitSummary]
      var title = ""
      var anchor = ""
      /// The group's cards as HTML (``HabitSummary/card(today:)``).
      var cards = Markup.empty
      /// Columns the group asks for on a wide screen (1–3), so small groups share a row.
      var span: Int { min(habits.count, 3) }
    }

    let groups: [Group]
    let archived: [HabitSummary]
    /// "Archived (3)".
    let archivedHeading: String
    let isEmpty: Bool
    let today: String
  }

  struct MarkForm: Decodable {
    var day: String
    var status: String
    var note: String?
    var amount: String?
    var back: String?
  }

  struct DayForm: Decodable {
    var day: String
    /// The page to show afterwards (a grid paged back stays where it was); this site only.
    var back: String?
  }

  struct MoveForm: Decodable {
    var direction: String
  }

  func addRoutes(to group: RouterGroup<AppRequestContext>) {
    group.get("habits", use: list)
    group.get("habits/new", use: newForm)
    group.post("habits", use: create)
    group.get("habits/{id}", use: detail)
    group.get("habits/{id}/edit", use: editForm)
    group.post("habits/{id}", use: update)
    group.post("habits/{id}/mark", use: mark)
    group.post("habits/{id}/toggle", use: toggle)
    group.post("habits/{id}/move", use: move)
    group.post("habits/{id}/archive", use: archive)
    group.post("habits/{id}/unarchive", use: unarchive)
    group.post("habits/{id}/delete", use: delete)
  }

  // MARK: Pages

  /// One read of the habits and one of their entries, however many habits there are; the page
  /// is kept until the next write.
  @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let time = try services.time(for: user)
    let speech = PageLanguages.speech(for: request, user: context.user)
    return try await services.cachedPage(for: user, today: time.today, request: request, speech: speech) { revision in
      try await listPage(user: user, time: time, request: request, revision: revision, speech: speech)
    }
  }

  private func listPage(
    user: User, time: UserTime, request: Request, revision: StoreRevision, speech: PageSpeech
  ) async throws -> HTMLPage {
    let words = HabitSummary.Words(PageDays(speech: speech, calendar: time.calendar))
    let days = try await services.histories.read(for: user.id, from: services.store, at: revision)
    let habits = days.habits(includingArchived: true)
    let summaries = habits.map { habit in
      let kept = days.days(of: habit.id)
      return HabitSummary(
        habit, entries: kept.entries, history: kept.history,
        statistics: kept.statistics(of: habit, today: time.today, firstWeekday: time.calendar.firstWeekday),
        today: time.today, words: words)
    }
    let active = summaries.filter { !$0.archived }
    var groups: [ListModel.Group] = []
    for summary in active {
      let name = summary.group ?? ""
      if let index = groups.firstIndex(where: { $0.name == name }) {
        groups[index].habits.append(summary)
      } else {
        groups.append(ListModel.Group(name: name, habits: [summary]))
      }
    }
    // Ungrouped habits first, under the page's own heading.
    groups.sort { ($0.name.isEmpty ? 0 : 1) < ($1.name.isEmpty ? 0 : 1) }
    for index in groups.indices {
      let name = groups[index].name
      groups[index].title =
        name.isEmpty ? speech.translator.text(groups.count > 1 ? "habits.ungrouped" : "habits.all") : name
      groups[index].anchor = String(index)
      groups[index].cards = groups[index].habits.map { $0.card(today: time.today.description, words: words.card) }.joined()
    }
    let model = ListModel(
      groups: groups, archived: summaries.filter(\.archived),
      archivedHeading: speech.translator.plural("habits.archived", count: summaries.count(where: \.archived)),
      isEmpty: habits.isEmpty,
      today: time.today.description)
    return Templates.shared.page(
      "habits", title: speech.translator.text("nav.habits"), section: .habits, user: user, request: request,
      content: model, live: revision, speech: speech)
  }

  @Sendable func detail(_ request: Request, context: AppRequestContext) async throws -> HTMLPage {
    let user = try context.requireUser()
    let time = try services.time(for: user)
    // Read before the data, as the response cache does: the page follows the live stream from it.
    let revision = try await services.store.revision(for: user.id)
    let habit = try await services.store.habit(id: try context.parameters.requireID("id"), for: user.id)
    let entries = try await services.store.entries(of: habit.id, for: user.id)
    let query = request.uri.queryParameters
    var editing = try query.day("day")
    if let day = editing, day > time.today { editing = nil }
    let until = try query.day("until")
    let width = try Self.gridWidth(of: request)
    let speech = PageLanguages.speech(for: request, user: context.user)
    let model = HabitDetail(
      habit: habit, entries: entries, pauses: try await services.store.pauses(for: user.id), today: time.today,
      words: PageDays(speech: speech, calendar: time.calendar), width: width, editing: editing, until: until)
    return Templates.shared.page(
      "habit", title: habit.name, section: .habits, user: user, request: request, content: model, live: revision,
      speech: speech)
  }

  @Sendable func newForm(_ request: Request, context: AppRequestContext) async throws -> HTMLPage {
    let user = try context.requireUser()
    return try await formPage(HabitForm(), habitID: nil, error: nil, user: user, request: request)
  }

  @Sendable func editForm(_ request: Request, context: AppRequestContext) async throws -> HTMLPage {
    let user = try context.requireUser()
    let habit = try await services.store.habit(id: try context.parameters.requireID("id"), for: user.id)
    return try await formPage(HabitForm(habit), habitID: habit.id, error: nil, user: user, request: request)
  }

  // MARK: Changes

  @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let form = try await request.decodeForm(HabitForm.self, limit: services.configuration.maxBodySize)
    do {
      let values = try form.values()
      let today = try services.time(for: user).today
      let existing = try await services.store.habits(for: user.id, includingArchived: true)
      try checkNameFree(values.name, among: existing, renaming: nil)
      let habit = try Habit(
        id: UUID(), name: values.name, icon: values.icon, color: values.color, group: values.group,
        createdDay: today, frequency: values.frequency, reminder: values.reminder,
        measure: values.measure,
        description: values.description)
      let created = try await Self.refusingTakenName(values.name) { try await services.store.appendHabit(habit, for: user.id) }
      return .seeOther("/habits/\(created.id.storeText)")
    } catch let invalid as HabitForm.Invalid {
      return try await formPage(form, habitID: nil, error: invalid, user: user, request: request)
        .response(from: request, context: context)
    }
  }

  @Sendable func update(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let id = try context.parameters.requireID("id")
    let form = try await request.decodeForm(HabitForm.self, limit: services.configuration.maxBodySize)
    var habit = try await services.store.habit(id: id, for: user.id)
    do {
      let values = try form.values()
      let existing = try await services.store.habits(for: user.id, includingArchived: true)
      try checkNameFree(values.name, among: existing, renaming: id)
      habit.name = values.name
      habit.icon = values.icon
      habit.color = values.color
      habit.group = values.group
      habit.frequency = values.frequency
      habit.reminder = values.reminder
      habit.measure = values.measure
      habit.description = values.description
      let changed = try habit.validated()
      _ = try await Self.refusingTakenName(values.name) { try await services.store.updateHabit(changed, for: user.id) }
      return .seeOther("/habits/\(id.storeText)")
    } catch let invalid as HabitForm.Invalid {
      return try await formPage(form, habitID: id, error: invalid, user: user, request: request)
        .response(from: request, context: context)
    }
  }

  /// Sets one day to done, skipped or not done (with a note, kept on any of them), then goes back where it came from.
  @Sendable func mark(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let id = try context.parameters.requireID("id")
    let form = try await request.decodeForm(MarkForm.self, limit: services.configuration.maxBodySize)
    let day = try Day.fromRequest(form.day, field: "day")
    let amount = try form.amount.flatMap { text throws(ValidationError) in
      text.trimmingCharacters(in: .whitespaces).isEmpty ? nil : try Amount(parsing: text)
    }
    let note = form.note.flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
    // "Not done" with a note keeps the note on the day; without one the day is cleared.
    let mark: DayMark =
      switch form.status {
      case "done": amount.map(DayMark.amount) ?? .done
      case "skipped": .skipped
      case "none": note == nil ? .nothing : .noted
      default:
        throw Problem(
          .unprocessableContent, "The status '\(form.status)' is not done, skipped or none.", field: "status")
      }
    try DayMark.checkMarkable(day, today: try services.time(for: user).today)
    _ = try await services.store.setDay(day, of: id, to: mark, note: note, for: user.id)
    return .seeOther(AccountPages.safeNext(form.back ?? "/habits/\(id.storeText)"))
  }

  /// A tap on a grid cell: done becomes nothing, anything else becomes done (SPEC 2's UI toggle).
  /// A done day's note stays, on a day then noted: a tap never deletes what someone wrote.
  @Sendable func toggle(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let id = try context.parameters.requireID("id")
    let form = try await request.decodeForm(DayForm.self, limit: services.configuration.maxBodySize)
    let day = try Day.fromRequest(form.day, field: "day")
    try DayMark.checkMarkable(day, today: try services.time(for: user).today)
    // A measurable day needs an amount: its tap opens the day instead.
    if try await services.store.habit(id: id, for: user.id).measure != nil {
      return .seeOther("/habits/\(id.storeText)?day=\(day)#day-editor")
    }
    let current = try await services.store.entries(of: id, in: day...day, for: user.id).first
    if let current, current.status == .done {
      let note = current.note
      _ = try await services.store.setDay(day, of: id, to: note == nil ? .nothing : .noted, note: note, for: user.id)
    } else {
      _ = try await services.store.setDay(day, of: id, to: .done, for: user.id)
    }
    return .seeOther(AccountPages.safeNext(form.back ?? "/habits/\(id.storeText)"))
  }

  /// Moves a habit one place up or down among the habits shown with it.
  @Sendable func move(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let id = try context.parameters.requireID("id")
    let form = try await request.decodeForm(MoveForm.self, limit: services.configuration.maxBodySize)
    let habits = try await services.store.habits(for: user.id, includingArchived: false)
    guard let moving = habits.first(where: { $0.id == id }) else { throw StoreError.notFound(.habit(id)) }
    let peers = habits.filter { $0.group == moving.group }
    var order = habits.map(\.id)
    let index = peers.firstIndex { $0.id == id }!
    let neighbour: Habit? =
      switch form.direction {
      case "up": index > 0 ? peers[index - 1] : nil
      case "down": index + 1 < peers.count ? peers[index + 1] : nil
      default:
        throw Problem(.unprocessableContent, "The direction '\(form.direction)' is not up or down.", field: "direction")
      }
    if let neighbour, let from = order.firstIndex(of: id), let to = order.firstIndex(of: neighbour.id) {
      order.swapAt(from, to)
      _ = try await services.store.reorderHabits(order, for: user.id)
    }
    return .seeOther("/habits#habit-\(id.storeText)")
  }

  @Sendable func archive(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let id = try context.parameters.requireID("id")
    _ = try await services.store.setArchived(true, habit: id, for: user.id)
    return .seeOther("/habits")
  }

  @Sendable func unarchive(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let id = try context.parameters.requireID("id")
    _ = try await services.store.setArchived(false, habit: id, for: user.id)
    return .seeOther("/habits#habit-\(id.storeText)")
  }

  /// Deleting removes every entry too (SPEC 2), so the form must say so and be confirmed.
  @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let id = try context.parameters.requireID("id")
    struct Confirm: Decodable { var confirm: String? }
    let form = try await request.decodeForm(Confirm.self, limit: services.configuration.maxBodySize)
    guard form.confirm == "yes" else {
      throw Problem(
        .unprocessableContent, "Tick the box to confirm: deleting a habit removes its whole history.",
        field: "confirm")
    }
    try await services.store.deleteHabit(id: id, for: user.id)
    return .seeOther("/habits")
  }

  // MARK: Helpers

  /// A name another client took between the check above and the write (the database's unique
  /// index refuses it) is told on the form like one taken before.
  private static func refusingTakenName<T>(_ name: String, _ write: () async throws -> T) async throws -> T {
    do {
      return try await write()
    } catch let error as StoreError {
      guard case .conflict = error else { throw error }
      throw taken(name, error)
    }
  }

  private func checkNameFree(_ name: String, among habits: [Habit], renaming: UUID?) throws(HabitForm.Invalid) {
    do {
      try HabitRules.checkNameFree(name, among: habits, renaming: renaming)
    } catch {
      throw Self.taken(name, error)
    }
  }

  private static func taken(_ name: String, _ error: StoreError) -> HabitForm.Invalid {
    HabitForm.Invalid(
      field: "name", message: error.description,
      rule: ValidationError(field: "name", rule: error.description, kind: .taken, values: ["name": name]))
  }
}
