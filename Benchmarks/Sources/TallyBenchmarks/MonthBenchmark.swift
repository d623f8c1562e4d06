import Foundation
import TallyCore
import TallyCoreReference
import TallySQLite
import TallyStore
import TallyWire

/// `tally-benchmarks month`: the streaming month view for 200 shows with 10 seasons of 10
/// weekly episodes each (20,000 episodes), every figure next to the engine's own time.
enum MonthBenchmark {
  static func run() async throws {
    let showCount = 200
    let seasons = 10
    let perSeason = 10
    let pool = try (1...12).map { try Provider(id: $0 * 7, name: "Service \($0)") }
    var rng = SplitMix64(state: 6)
    var shows: [Show] = []
    var episodes: [Episode] = []
    // Seasons a year apart from 2017, so the month holds a realistic slice, not everything.
    let start = Day("2017-01-02")!
    for index in 0..<showCount {
      let count = 1 + Int(rng.next() % 3)
      let providers = (0..<count).map { _ in pool[Int(rng.next() % UInt64(pool.count))] }
      var unique: [Provider] = []
      for provider in providers where !unique.contains(provider) { unique.append(provider) }
      let show = try Show(
        id: UUID(), title: "Show \(index)", status: index % 10 == 0 ? .paused : .watching,
        providers: ["US": unique, "DE": Array(unique.prefix(1))])
      shows.append(show)
      let offset = Int(rng.next() % 365)
      for season in 1...seasons {
        for number in 1...perSeason {
          episodes.append(
            try Episode(
              showID: show.id, season: season, number: number, title: "S\(season)E\(number)",
              airDay: start.adding(days: offset + (season - 1) * 365 + (number - 1) * 7)))
        }
      }
    }
    let month = Month(year: 2026, month: 3)!
    let calendar = try DayCalendar(timeZone: TimeZone(identifier: "America/New_York")!)
    let today = Day("2026-03-08")!
    let first = calendar.startOfWeek(containing: month.firstDay)
    let onScreen = episodes.filter { (0..<MonthView.cellCount).contains(first.days(to: $0.airDay)) }
    print("Month view for \(month), US: \(showCount) shows × \(seasons) seasons × \(perSeason) episodes = \(episodes.count) episodes, \(onScreen.count) in the 42 days shown")
    print("Best of several runs, one core; ratios are against the engine building the view from the 42 days' episodes.\n")

    let engine = best(50) { sink += Double(view(month, shows, onScreen, calendar, today).cells.count) }
    line("engine, the 42 days' episodes (baseline)", engine)
    let engineAll = best(20) { sink += Double(view(month, shows, episodes, calendar, today).cells.count) }
    line("engine, all \(episodes.count) episodes", engineAll, ratio(engineAll, engine))
    let reference = best(3) {
      sink += Double(
        ReferenceMonth.cells(
          year: 2026, month: 3, country: "US", shows: shows, episodes: episodes, firstWeekday: .sunday, today: today
        ).count)
    }
    line("reference (a scan per day), all episodes", reference, ratio(reference, engine))
    let built = view(month, shows, onScreen, calendar, today)
    let encode = best(50) { sink += Double((try? WireJSON.encoder.encode(built))?.count ?? 0) }
    line("JSON of the view", encode, ratio(encode, engine))

    let store = SQLiteStore(try AppDatabase.inMemory())
    let user = try await store.createUser(User(id: UUID(), name: "ada", settings: UserSettings(timeZone: "America/New_York")))
    for show in shows { try await store.saveShow(show, for: user.id) }
    try await store.saveEpisodes(episodes, for: user.id)
    var stored = Double.infinity
    for _ in 0..<20 {
      let began = ContinuousClock.now
      let read = try await MonthView.read(from: store, user: user.id, month: month, country: "US", calendar: calendar, today: today)
      stored = min(stored, (ContinuousClock.now - began).seconds)
      sink += Double(read.cells.count)
    }
    line("read from SQLite + engine (a cache miss)", stored, ratio(stored, engine))
    let check = try await MonthView.read(from: store, user: user.id, month: month, country: "US", calendar: calendar, today: today)
    guard check.cells.map(\.providers) == built.cells.map(\.providers) else {
      throw BenchmarkFailure(description: "the stored month differs from the one built in memory")
    }
    print("\nA cache hit (the server's calendar route) sends the kept JSON: no store read and no engine work.")
  }

  private static func view(_ month: Month, _ shows: [Show], _ episodes: [Episode], _ calendar: DayCalendar, _ today: Day) -> MonthView {
    try! MonthView(month: month, country: "US", shows: shows, episodes: episodes, calendar: calendar, today: today)
  }

  private static func line(_ label: String, _ seconds: Double, _ ratio: String? = nil) {
    print("  " + label.padding(toLength: 44, withPad: " ", startingAt: 0) + format(seconds) + (ratio.map { "   = \($0)" } ?? ""))
  }

  private static func ratio(_ figure: Double, _ baseline: Double) -> String {
    String(format: figure / baseline < 10 ? "%.1f× engine" : "%.0f× engine", figure / baseline)
  }
}
