import Foundation
import Hummingbird
import TallyCore

extension Parameters {
  /// A path id as a UUID, or a 404: an id that cannot exist names nothing here.
  package func requireID(_ name: String) throws -> UUID {
    guard let text = get(name), let id = UUID(uuidString: text) else {
      throw Problem(.notFound, "There is nothing with id '\(get(name) ?? "")' here.")
    }
    return id
  }

  /// A path day `YYYY-MM-DD`, or a 400 naming it.
  package func requireDay(_ name: String) throws -> Day {
    guard let text = get(name), let day = Day(text) else {
      throw Problem(.badRequest, "The day '\(get(name) ?? "")' is not a day like 2026-03-08.", field: name)
    }
    return day
  }
}
