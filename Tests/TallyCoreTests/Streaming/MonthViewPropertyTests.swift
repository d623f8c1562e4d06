import Foundation
import PropertyBased
import TallyCore
import TallyCoreReference
import Testing

@Suite struct MonthViewPropertyTests {
  static let zones = ["America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Pacific/Apia", "Asia/Kolkata"]

  /// Providers drawn from a small id range with short names, so ids collide across shows (with
  /// differing names and logos), names tie in length, and logos are sometimes missing.
  static let provider = zip(Gen.int(in: 1...10), Gen.int(in: 1...6), Gen.bool).map { id, nameLength, hasLogo in
    try! Provider(
      id: id, name: String(repeating: "n", count: nameLength),
      logoURL: hasLogo ? URL(string: "https://example.com/\(id).png") : nil)
  }

  static let show = zip(Gen.int(in: 0...2), provider.array(of: 0...5), provider.array(of: 0...3), Gen.int(in: 1...4)).map {
    status, us, au, title in
    try! Show(id: UUID(), title: "Show \(title)", status: ShowStatus.allCases[status], providers: ["US": us, "AU": au])
  }

  @Test func monthViewMatchesTheSlowReference() async {
    let input = zip(
      zip(Gen.int(in: 1995...2035), Gen.int(in: 1...12), Gen.int(in: 1...7), Gen.int(in: -50...80)),
      Self.show.array(of: 0...6),
      // Show index (past the end means a show not on the watchlist) and day offset from the 1st.
      zip(Gen.int(in: 0...7), Gen.int(in: -45...75)).array(of: 0...40),
      zip(Gen.bool, Gen.int(in: 0...(Self.zones.count - 1))))
    await propertyCheck(count: 300, input: input) { when, shows, episodeSpecs, place in
      let (year, monthNumber, weekdayNumber, todayOffset) = when
      let (inUS, zoneIndex) = place
      let month = Month(year: year, month: monthNumber)!
      let firstWeekday = Weekday(rawValue: weekdayNumber)!
      let today = month.firstDay.adding(days: todayOffset)
      let country = inUS ? "US" : "AU"
      let strangerID = UUID()
      let episodes = episodeSpecs.enumerated().map { index, spec in
        try! Episode(
          showID: spec.0 < shows.count ? shows[spec.0].id : strangerID, season: 1, number: index,
          title: "E\(index)", airDay: month.firstDay.adding(days: spec.1))
      }
      let calendar = try! DayCalendar(
        timeZone: TimeZone(identifier: Self.zones[zoneIndex])!, firstWeekday: firstWeekday)

      let view = try! MonthView(
        month: month, country: country, shows: shows, episodes: episodes, calendar: calendar, today: today)
      let reference = ReferenceMonth.cells(
        year: year, month: monthNumber, country: country, shows: shows, episodes: episodes,
        firstWeekday: firstWeekday, today: today)

      #expect(view.cells.count == reference.count)
      for (cell, expected) in zip(view.cells, reference) {
        #expect(cell.day == expected.day)
        #expect(cell.isInMonth == expected.isInMonth)
        #expect(cell.isToday == expected.isToday)
        #expect(cell.providers == expected.providers)
        #expect(cell.showsWithoutProvider == expected.showsWithoutProvider)
        #expect(cell.primary == expected.primary)
        #expect(cell.display == expected.display)
      }
    }
  }

  /// The detail's totals are the per-currency sums of exactly the priced rows.
  @Test func detailTotalsSumThePricedRows() async {
    let input = zip(
      Self.provider.array(of: 1...8),
      zip(Gen.int(in: 1...10), Gen.int(in: 0...5000), Gen.bool).array(of: 0...10))
    await propertyCheck(count: 200, input: input) { providers, priceSpecs in
      var table = PriceTable()
      for (id, cents, dollars) in priceSpecs {
        table.set(try! Price(
          country: "US", providerID: id, amount: Decimal(cents) / 100, currency: dollars ? "USD" : "EUR"))
      }
      let show = try! Show(id: UUID(), title: "S", status: .watching, providers: ["US": providers])
      let day = Day("2025-09-10")!
      let view = try! MonthView(
        month: Month("2025-09")!, country: "US", shows: [show],
        episodes: [try! Episode(showID: show.id, season: 1, number: 1, title: "E", airDay: day)],
        calendar: Fixtures.newYork, today: day)
      let detail = view.detail(for: day, prices: table)!
      let priced = detail.rows.compactMap(\.price)
      #expect(detail.rows.count == view.cell(for: day)!.providers.count)
      #expect(detail.unpricedCount == detail.rows.count - priced.count)
      for currency in ["USD", "EUR"] {
        let expected = priced.filter { $0.currency == currency }.reduce(Decimal(0)) { $0 + $1.amount }
        let total = detail.totals.first { $0.currency == currency }?.amount
        #expect(total == (priced.contains { $0.currency == currency } ? expected : nil))
      }
    }
  }
}
