import Foundation
import TallyCore

/// The streaming month view computed the slow way: every cell scans every show and every
/// episode, days come from Foundation's calendar via ``ReferenceCalendar``, and nothing is
/// grouped or indexed. Property tests compare ``MonthView`` against it.
public enum ReferenceMonth {
  public struct Cell: Equatable, Sendable {
    public let day: Day
    public let isInMonth: Bool
    public let isToday: Bool
    public let providers: [Provider]
    public let showsWithoutProvider: [String]
    public let primary: Provider?
    public let display: CellDisplay
  }

  public static func cells(
    year: Int, month: Int, country: String, shows: [Show], episodes: [Episode],
    firstWeekday: Weekday, today: Day
  ) -> [Cell] {
    let first = Day(year: year, month: month, day: 1)!
    let start = ReferenceCalendar.startOfWeek(containing: first, firstWeekday: firstWeekday)
    var cells: [Cell] = []
    var day = start
    while cells.count < 42 {
      let providers = ordered(providersAiring(on: day, country: country, shows: shows, episodes: episodes))
      let unlinked = titlesWithoutProvider(on: day, country: country, shows: shows, episodes: episodes)
      cells.append(
        Cell(
          day: day, isInMonth: day.year == year && day.month == month, isToday: day == today,
          providers: providers, showsWithoutProvider: unlinked, primary: providers.first,
          display: providers.isEmpty && !unlinked.isEmpty ? .plain : display(for: providers)))
      day = ReferenceCalendar.adding(1, to: day)
    }
    return cells
  }

  /// Walks the shows in order; a provider id seen before is skipped.
  static func providersAiring(on day: Day, country: String, shows: [Show], episodes: [Episode])
    -> [Provider]
  {
    var found: [Provider] = []
    for show in shows where show.status == .watching {
      let airs = episodes.contains { $0.showID == show.id && $0.airDay == day }
      guard airs else { continue }
      for provider in show.providers[country] ?? [] where !found.contains(where: { $0.id == provider.id }) {
        found.append(provider)
      }
    }
    return found
  }

  /// The titles of watching shows airing `day` with no provider in `country`, each once, in
  /// the order Finder sorts names.
  static func titlesWithoutProvider(on day: Day, country: String, shows: [Show], episodes: [Episode]) -> [String] {
    var titles: [String] = []
    for show in shows where show.status == .watching && (show.providers[country] ?? []).isEmpty {
      let airs = episodes.contains { $0.showID == show.id && $0.airDay == day }
      if airs && !titles.contains(show.title) { titles.append(show.title) }
    }
    return titles.sorted { $0.localizedStandardCompare($1) == .orderedAscending }
  }

  /// Selection sort: repeatedly take the provider no other one beats (longer name, or the same
  /// length and a smaller id).
  static func ordered(_ providers: [Provider]) -> [Provider] {
    var remaining = providers
    var result: [Provider] = []
    while !remaining.isEmpty {
      let best = remaining.indices.first { candidate in
        remaining.allSatisfy { other in
          let longer = other.name.count > remaining[candidate].name.count
          let sameLengthSmallerID =
            other.name.count == remaining[candidate].name.count && other.id < remaining[candidate].id
          return !(longer || sameLengthSmallerID)
        }
      }!
      result.append(remaining.remove(at: best))
    }
    return result
  }

  static func display(for providers: [Provider]) -> CellDisplay {
    if providers.isEmpty {
      return .none
    }
    if providers.count > 3 || providers[0].logoURL == nil {
      let dots = Array(providers.prefix(3))
      return .dots(dots, overflow: providers.count - dots.count)
    }
    if providers.count == 1 {
      return .logo(providers[0])
    }
    return .logoWithDots(primary: providers[0], dots: Array(providers[1...]))
  }
}
