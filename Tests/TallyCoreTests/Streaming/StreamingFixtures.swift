import Foundation
import TallyCore

/// Shared test data: real TMDB provider ids and small helpers that keep each test's setup to
/// the facts it is about.
enum Fixtures {
  static func logo(_ name: String) -> URL {
    URL(string: "https://image.tmdb.org/t/p/w92/\(name).png")!
  }

  static let netflix = try! Provider(id: 8, name: "Netflix", logoURL: logo("netflix"))
  static let prime = try! Provider(id: 9, name: "Amazon Prime Video", logoURL: logo("prime"))
  static let hulu = try! Provider(id: 15, name: "Hulu", logoURL: logo("hulu"))
  static let disney = try! Provider(id: 337, name: "Disney Plus", logoURL: logo("disney"))
  static let appleTV = try! Provider(id: 350, name: "Apple TV Plus", logoURL: logo("apple"))
  static let peacock = try! Provider(id: 386, name: "Peacock", logoURL: logo("peacock"))
  static let paramount = try! Provider(id: 531, name: "Paramount Plus", logoURL: logo("paramount"))
  static let max = try! Provider(id: 1899, name: "Max", logoURL: logo("max"))
  static let stan = try! Provider(id: 21, name: "Stan", logoURL: nil)

  static let newYork = try! DayCalendar(timeZone: TimeZone(identifier: "America/New_York")!)

  static func calendar(_ zone: String = "America/New_York", firstWeekday: Weekday = .sunday)
    -> DayCalendar
  {
    try! DayCalendar(timeZone: TimeZone(identifier: zone)!, firstWeekday: firstWeekday)
  }

  static func day(_ text: String) -> Day {
    Day(text)!
  }

  static func month(_ text: String) -> Month {
    Month(text)!
  }

  static func show(
    _ title: String, _ providers: [String: [Provider]], status: ShowStatus = .watching,
    id: UUID = UUID()
  ) -> Show {
    try! Show(id: id, title: title, status: status, providers: providers)
  }

  static func episodes(of show: Show, on days: String...) -> [Episode] {
    days.enumerated().map { index, text in
      try! Episode(showID: show.id, season: 1, number: index + 1, title: "Episode \(index + 1)", airDay: Day(text)!)
    }
  }

  /// September 2025 (1 September is a Monday) in the US, weeks starting Sunday.
  static func september(
    shows: [Show], episodes: [Episode], country: String = "US", today: String = "2025-09-15",
    calendar: DayCalendar = Fixtures.newYork
  ) throws -> MonthView {
    try MonthView(
      month: month("2025-09"), country: country, shows: shows, episodes: episodes,
      calendar: calendar, today: day(today))
  }
}
