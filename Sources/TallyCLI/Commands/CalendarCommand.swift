import ArgumentParser
import Foundation
import TallyCore
import TallyStore
import TallyWire

/// `tally calendar [YYYY-MM] [--country CC] [--json]`
struct CalendarCommand: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "calendar",
    abstract: "The streaming month view: which services air an episode of your shows each day.",
    discussion: """
      Only shows you are watching count, with the services that stream them in the country. \
      The month has 6 weeks of 7 days from the start of the week holding the 1st.
      """)

  @OptionGroup var global: GlobalOptions

  @Argument(help: ArgumentHelp("The month, YYYY-MM; default this month.", valueName: "month"))
  var month: String?

  @Option(help: ArgumentHelp("Two-letter country code; default your locale's country.", valueName: "cc"))
  var country: String?

  @Flag(help: "Print JSON only: the month view.")
  var json = false

  func validate() throws {
    if let month {
      _ = try checked { () throws(TallyCore.ValidationError) in try Month(parsing: month) }
    }
    if let country {
      _ = try checked { () throws(TallyCore.ValidationError) in try CountryCode.normalized(country) }
    }
  }

  func run(in context: CommandContext) async throws {
    let session = try await SessionOpener(options: global, context: context).open()
    let calendar = try session.calendar
    let today = try session.today
    let month = try month.map { try Month(parsing: $0) } ?? Month(containing: today)
    guard let country = country ?? MonthView.country(ofLocale: session.user.settings.locale) else {
      throw CommandFailure(
        "Your locale \(session.user.settings.locale) names no country: give one with --country, like --country US.",
        exitCode: CommandFailure.usage)
    }
    let view = try await MonthView.read(
      from: session.store, user: session.user.id, month: month, country: country, calendar: calendar,
      today: today)
    if json {
      try session.output.json(view)
      return
    }
    let prices = try await session.store.priceTable(for: session.user.id)
    CalendarText.lines(view, prices: prices).forEach(session.output.line)
  }
}

/// The month as a terminal calendar, then the days that have something on.
enum CalendarText {
  static func lines(_ view: MonthView, prices: PriceTable) -> [String] {
    let calendar = view.calendar
    var lines = ["\(calendar.monthName(view.month.month)) \(view.month.year) · \(view.country)"]
    // Every cell is 5 wide: `[ 8]*` — brackets for today, `*` when something airs; days of
    // the neighbouring months show as dots so the month stands out.
    lines.append(
      calendar.orderedWeekdays.map { weekday in
        let name = String(calendar.gregorian.shortWeekdaySymbols[weekday.rawValue - 1].prefix(3))
        return String(repeating: " ", count: max(0, 4 - name.count)) + name + " "
      }.joined(separator: " ").droppingTrailingSpaces)
    for row in view.rows {
      var line = row.map { cell in
        let number = cell.isInMonth ? String(cell.day.day) : "·"
        let (open, close) = cell.isToday ? ("[", "]") : (" ", " ")
        return open + String(repeating: " ", count: max(0, 2 - number.count)) + number + close
          + (cell.hasAiring ? "*" : " ")
      }.joined(separator: " ")
      while line.hasSuffix(" ") { line.removeLast() }
      lines.append(line)
    }
    let airing = view.cells.filter { $0.isInMonth && $0.hasAiring }
    lines.append("")
    if airing.isEmpty {
      lines.append("Nothing airs this month on the shows you are watching.")
    } else {
      // Each day's detail: the providers with their prices, then the day's total, which
      // leaves out unpriced providers and says how many.
      var table = TextTable([.left, .left, .left])
      for cell in airing {
        guard let detail = view.detail(for: cell.day, prices: prices) else { continue }
        // A show with no provider in the country is named, with no price and no total.
        let names =
          detail.rows.map { "\($0.provider.name) \($0.priceText)" }
          + detail.showsWithoutProvider.map { "\($0) (no provider in \(view.country))" }
        table.add([
          "\(calendar.dayLetter(for: cell.day)) \(cell.day)",
          names.joined(separator: ", "),
          detail.rows.isEmpty
            ? ""
            : detail.totalText
              + (detail.hasUnpricedRows ? " (\(Sentence.count(detail.unpricedCount, "provider")) without a price left out)" : ""),
        ])
      }
      lines += table.lines
    }
    if let attribution = view.attribution {
      lines += ["", attribution]
    }
    return lines
  }
}

extension String {
  fileprivate var droppingTrailingSpaces: String {
    var text = self
    while text.hasSuffix(" ") { text.removeLast() }
    return text
  }
}
