import Foundation
import TallyCore
import TallyStore

/// SHOW on the command line: an id, the start of one, or a title in any case.
enum ShowLookup {
  static func find(_ reference: String, in session: Session) async throws -> Show {
    let shows = try await session.store.shows(for: session.user.id)
    let text = reference.trimmingCharacters(in: .whitespacesAndNewlines)
    if let id = UUID(uuidString: text), let show = shows.first(where: { $0.id == id }) { return show }
    let titled = shows.filter { NameKey.same($0.title, text) }
    if titled.count == 1 { return titled[0] }
    let prefixed = text.count >= 4 ? shows.filter { $0.id.uuidString.lowercased().hasPrefix(text.lowercased()) } : []
    if prefixed.count == 1 { return prefixed[0] }
    throw CommandFailure(
      titled.count + prefixed.count > 1
        ? "More than one show matches '\(text)': name it by its id (tally show list)."
        : "You have no show '\(text)': see them with 'tally show list'.")
  }
}
