import Foundation
import TallyCore
import TallyHTTP
import TallyLocalization
import TallyStore
import TallyTMDB

/// What the Shows pages show: the user's shows, TMDB search results, one show with its
/// providers and episodes, and the price table.
struct ShowsModel: Sendable {
  struct Status: Sendable {
    let value: String
    let label: String
    let selected: Bool
  }

  struct Row: Sendable {
    let id: String
    let title: String
    let status: String
    let providers: String
    let next: String?
  }

  struct Found: Sendable {
    let tmdbId: Int
    let name: String
    let year: String?
    let overview: String
    /// "Add Severance (2022)", for the button that says only "Add".
    let addLabel: String
  }

  let rows: [Row]
  let tmdb: Bool
  let query: String
  let found: [Found]
  let searchSummary: String?
  let notice: String?
  let statuses: [Status]
  let attribution: String
  let timeZone: String
  /// "Times without a zone are read in yours (Europe/Berlin)."
  let feedZoneText: String
  let providerChoices: [ProviderChoice]
  let picker = ProviderPicker(prefix: "feed", required: false)

  static func statuses(selected: ShowStatus = .watching, t: Translator) -> [Status] {
    ShowStatus.allCases.map { Status(value: $0.rawValue, label: t.text("showStatus.\($0.rawValue)"), selected: $0 == selected) }
  }

  static func summary(of show: Show, t: Translator) -> String {
    let countries = show.providers.keys.sorted().compactMap { country -> String? in
      let names = show.providers(in: country).map(\.name)
      return names.isEmpty ? nil : "\(country): \(names.joined(separator: ", "))"
    }
    return countries.isEmpty ? t.text("shows.noProviders") : countries.joined(separator: " · ")
  }

  static func read(
    from store: any Store, user: User, source: (any ShowSource)?, query: String, notice: String?, today: Day,
    words: PageDays
  ) async throws -> ShowsModel {
    let t = words.t
    let shows = try await store.shows(for: user.id)
    let upcoming = try await store.episodes(airingIn: today...Day.allTime.upperBound, for: user.id)
    var next: [UUID: Episode] = [:]
    for episode in upcoming where next[episode.showID].map({ episode.airDay < $0.airDay }) ?? true {
      next[episode.showID] = episode
    }
    let rows = shows.map { show in
      Row(
        id: show.id.storeText, title: show.title, status: t.text("showStatus.\(show.status.rawValue)"),
        providers: summary(of: show, t: t),
        next: next[show.id].map {
          t.text("shows.next", ["episode": "\(CalendarAiring.code($0)) \($0.title)", "day": words.name($0.airDay)])
        })
    }
    var found: [Found]?
    let asked = query.trimmingCharacters(in: .whitespacesAndNewlines)
    if let source, !asked.isEmpty {
      found = try await Problem.fromTMDB { try await source.searchShows(String(asked.prefix(200))) }.map { show in
        let year = show.firstAirDay.map { String($0.year) }
        return Found(
          tmdbId: show.tmdbId, name: show.name, year: year, overview: show.overview,
          addLabel: year.map { t.text("shows.addLabelYear", ["name": show.name, "year": $0]) }
            ?? t.text("shows.addLabel", ["name": show.name]))
      }
    }
    return ShowsModel(
      rows: rows, tmdb: source != nil, query: query, found: found ?? [],
      searchSummary: found.map {
        $0.isEmpty ? t.text("shows.noneFound", ["words": asked]) : t.plural("shows.found", count: $0.count)
      },
      notice: notice, statuses: statuses(t: t), attribution: t.text("calendar.tmdbNotice"),
      timeZone: user.settings.timeZone, feedZoneText: t.text("shows.feedZone", ["zone": user.settings.timeZone]),
      providerChoices: ProviderChoice.all(shows: shows))
  }
}

/// Where a page puts the service picker: its ids' prefix, and whether a service must be picked.
struct ProviderPicker: Sendable {
  let prefix: String
  let required: Bool
}

/// A service a page offers to pick: the common ones and every one the user's shows name.
struct ProviderChoice: Sendable {
  let value: String
  let name: String

  /// TMDB's ids of the services most people pay for: those the shipped price table names.
  static let common: [(Int, String)] = [
    (8, "Netflix"), (9, "Amazon Prime Video"), (337, "Disney Plus"), (1899, "Max"), (15, "Hulu"),
    (350, "Apple TV Plus"), (531, "Paramount Plus"), (386, "Peacock Premium"), (119, "Amazon Prime Video"),
    (21, "Stan"), (385, "BINGE"), (39, "NOW TV"), (230, "Crave"), (30, "WOW"),
  ]

  static func all(shows: [Show]) -> [ProviderChoice] {
    var names = Dictionary(common, uniquingKeysWith: { first, _ in first })
    for provider in shows.flatMap({ $0.providers.values.joined() }) where names[provider.id] == nil {
      names[provider.id] = provider.name
    }
    return names.sorted { ($0.value.lowercased(), $0.key) < ($1.value.lowercased(), $1.key) }
      .map { ProviderChoice(value: String($0.key), name: $0.value) }
  }
}
