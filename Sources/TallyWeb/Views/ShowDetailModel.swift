import Foundation
import TallyCore
import TallyHTTP
import TallyLocalization
import TallyStore
import TallyWire

/// One show's page: its status, its services per country, and its episodes.
struct ShowDetailModel: Sendable {
  struct ProviderRow: Sendable {
    let country: String
    let providerId: Int
    let name: String
    let removeLabel: String
  }

  struct EpisodeRow: Sendable {
    let code: String
    let title: String
    let airDay: String
    let spoken: String
    let isPast: Bool
  }

  let id: String
  let title: String
  let statuses: [ShowsModel.Status]
  let fromTMDB: Bool
  let providers: [ProviderRow]
  let episodes: [EpisodeRow]
  let providerChoices: [ProviderChoice]
  let defaultCountry: String
  /// "Delete Severance and its episodes".
  let deleteConfirm: String
  let picker = ProviderPicker(prefix: "add", required: true)

  static func read(from store: any Store, user: User, id: UUID, today: Day, words: PageDays) async throws
    -> ShowDetailModel
  {
    let t = words.t
    let show = try await store.show(id: id, for: user.id)
    let shows = try await store.shows(for: user.id)
    let episodes = try await store.episodes(of: id, for: user.id)
    let priced = try await store.priceTable(for: user.id).prices.first?.country
    let country = MonthView.country(ofLocale: user.settings.locale) ?? priced ?? "US"
    return ShowDetailModel(
      id: show.id.storeText, title: show.title, statuses: ShowsModel.statuses(selected: show.status, t: t),
      fromTMDB: show.tmdbID != nil,
      providers: show.providers.keys.sorted().flatMap { code in
        show.providers(in: code).map {
          ProviderRow(
            country: code, providerId: $0.id, name: $0.name,
            removeLabel: t.text("show.removeLabel", ["name": $0.name, "country": code]))
        }
      },
      episodes: episodes.map {
        EpisodeRow(
          code: CalendarAiring.code($0),
          title: $0.title, airDay: $0.airDay.description,
          spoken: words.name($0.airDay, includingYear: true), isPast: $0.airDay < today)
      },
      providerChoices: ProviderChoice.all(shows: shows), defaultCountry: country,
      deleteConfirm: t.text("show.deleteConfirm", ["show": show.title]))
  }
}
