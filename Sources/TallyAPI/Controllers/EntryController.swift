import Foundation
import HTTPTypes
import Hummingbird
import TallyCore
import TallyHTTP
import TallyStore

/// A habit's days, set to a value rather than toggled so a retried request changes nothing
/// (SPEC 2). The rules are `tally mark`'s: days after the user's today are refused, and then
/// no day changes; days before the habit was created may be back-filled.
struct EntryController {
  let services: AppServices

  /// What a day ends up as; `none` removes its entry and note, `noted` keeps it not done with
  /// the note given.
  enum Status: String, Decodable, Sendable {
    case done, skipped, noted, none

    var mark: DayMark {
      switch self {
      case .done: .done
      case .skipped: .skipped
      case .noted: .noted
      case .none: .nothing
      }
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      let text = try container.decode(String.self)
      guard let status = Status(rawValue: text) else {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: "'\(text)' is not a status; expected done, skipped, noted or none")
      }
      self = status
    }
  }

  struct DayBody: JSONBody {
    var status: Status
    var note: String?
    var amount: Amount?
    static let fields: Set<String> = ["status", "note", "amount"]
    static let textLimits = ["note": EntryNote.maxCharacters]
    static let nullableFields: Set<String> = ["note"]
  }

  /// Several days at once: a list, or a range from…to.
  struct DaysBody: JSONBody {
    var days: [Day]?
    var from: Day?
    var to: Day?
    var status: Status
    var note: String?
    var amount: Amount?
    static let fields: Set<String> = ["days", "from", "to", "status", "note", "amount"]
    static let textLimits = ["note": EntryNote.maxCharacters]
    static let nullableFields: Set<String> = ["note"]

    func chosenDays() throws -> [Day] {
      switch (days, from, to) {
      case (let days?, nil, nil):
        guard !days.isEmpty else {
          throw Problem(.unprocessableContent, "The days must name at least one day.", field: "days")
        }
        return days
      case (nil, let from?, let to?):
        do {
          return try DaySpan.days(from: from, through: to, field: "to")
        } catch {
          throw Problem(.unprocessableContent, "The range \(error.rule).", field: "to")
        }
      case (nil, nil, nil):
        throw Problem(.unprocessableContent, "Say which days to set: send days, or from and to.", field: "days")
      case (nil, _, nil):
        throw Problem(.unprocessableContent, "A range needs its last day too: send to with from.", field: "to")
      case (nil, nil, _):
        throw Problem(.unprocessableContent, "A range needs its first day too: send from with to.", field: "from")
      default:
        throw Problem(.unprocessableContent, "Send either days or from and to, not both.", field: "days")
      }
    }
  }

  func addRoutes(to group: RouterGroup<AppRequestContext>) {
    group.get("habits/{id}/entries", use: list)
    group.post("habits/{id}/entries", use: setMany)
    group.put("habits/{id}/entries/{day}", use: setOne)
    group.delete("habits/{id}/entries/{day}", use: clearOne)
  }

  @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<[HabitEntry]> {
    let user = try context.requireUser()
    let id = try context.parameters.requireID("id")
    let query = request.uri.queryParameters
    let from = try query.day("from")
    let to = try query.day("to")
    if let from, let to, from > to {
      throw Problem(.badRequest, "The range \(from)..\(to) must not end before it starts.", field: "to")
    }
    let range: ClosedRange<Day>? =
      from == nil && to == nil ? nil : (from ?? Day.allTime.lowerBound)...(to ?? Day.allTime.upperBound)
    return JSONResponse(try await services.store.entries(of: id, in: range, for: user.id))
  }

  /// 200 with the day's entry, or 204 when it was set to `none`.
  @Sendable func setOne(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let id = try context.parameters.requireID("id")
    let day = try context.parameters.requireDay("day")
    let body = try await request.decodeJSON(DayBody.self, limit: services.configuration.maxBodySize)
    let entries = try await set([day], of: id, to: body.status, amount: body.amount, note: body.note, for: user)
    guard let entry = entries.first else { return Response(status: .noContent) }
    return try JSONResponse(entry).response(from: request, context: context)
  }

  @Sendable func clearOne(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let id = try context.parameters.requireID("id")
    let day = try context.parameters.requireDay("day")
    try await set([day], of: id, to: .none, amount: nil, note: nil, for: user)
    return Response(status: .noContent)
  }

  /// Every day in one transaction; answers the days' entries afterwards, as `mark --json`.
  @Sendable func setMany(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<[HabitEntry]> {
    let user = try context.requireUser()
    let id = try context.parameters.requireID("id")
    let body = try await request.decodeJSON(DaysBody.self, limit: services.configuration.maxBodySize)
    return JSONResponse(
      try await set(try body.chosenDays(), of: id, to: body.status, amount: body.amount, note: body.note, for: user))
  }

  @discardableResult
  private func set(
    _ days: [Day], of habit: UUID, to status: Status, amount: Amount?, note: String?, for user: User
  ) async throws -> [HabitEntry] {
    if let amount, status != .done {
      throw Problem(
        .unprocessableContent, "The amount \(amount) goes with status done; a \(status.rawValue) day has none.",
        field: "amount")
    }
    if status == .none, note != nil {
      throw Problem(
        .unprocessableContent, "A status of none removes the days' notes with their entries; send no note.",
        field: "note")
    }
    let today = try services.calendar(for: user).today
    if let last = days.max() { try DayMark.checkMarkable(last, today: today) }
    if let first = days.min() { try Problem.checkKept(first, .unprocessableContent, field: "day") }
    let mark = amount.map(DayMark.amount) ?? status.mark
    return try await services.store.setDays(days, of: habit, to: mark, note: note, for: user.id)
  }
}
