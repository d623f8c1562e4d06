import Foundation
import Hummingbird
import TallyCore
import TallyStore

extension Parameters {
  /// A path id as a UUID, or a 404: an id that cannot exist names nothing here.
  package func requireID(_ name: String) throws -> UUID {
    guard let text = get(name), let id = UUID(uuidString: text) else {
      throw Problem(.notFound, "There is nothing with id '\(get(name) ?? "")' here.")
    }
    return id
  }

  /// A path day `YYYY-MM-DD`, or a 400 naming it (``Day/fromRequest(_:field:)``).
  package func requireDay(_ name: String) throws -> Day {
    try Day.fromRequest(get(name) ?? "", field: name)
  }
}

extension Day {
  /// A day a request sent as text, `YYYY-MM-DD`, or a 400 naming `field`. A day no store holds
  /// (year 0000) is refused too: ranges reaching from it to every day (`Day.allTime`) would
  /// not be ranges at all.
  package static func fromRequest(_ text: String, field: String) throws -> Day {
    guard let day = Day(text) else {
      throw Problem(.badRequest, "The day '\(text)' is not a day like 2026-03-08.", field: field)
    }
    try Problem.checkKept(day, .badRequest, field: field)
    return day
  }
}

extension Problem {
  /// ``Day/checkKept(_:field:)`` as a problem naming `field`.
  package static func checkKept(_ day: Day, _ status: HTTPResponse.Status, field: String) throws {
    do {
      try Day.checkKept(day)
    } catch {
      throw Problem(status, error, field: field)
    }
  }
}
