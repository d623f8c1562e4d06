import ArgumentParser
import TallyCore
import TallyStore
import TallyWire

/// `tally today [--width W] [--json]`
struct TodayCommand: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "today",
    abstract: "The Today view: journal streak, badge, date row header and date picker grid.",
    discussion: "--json prints the whole view (layout, every cell's state and style) for a renderer.")

  @OptionGroup var global: GlobalOptions

  @Option(help: ArgumentHelp("The screen width in points the grid is laid out for.", valueName: "w"))
  var width: Double = TodayView.defaultWidth

  @Option(help: ArgumentHelp("The selected day (YYYY-MM-DD, today or yesterday); default today.", valueName: "day"))
  var select: String?

  @Flag(help: "Print JSON only: the Today view.")
  var json = false

  func validate() throws {
    _ = try checked { () throws(TallyCore.ValidationError) in try DatePickerGridLayout(width: width) }
    if let select {
      _ = try checked { () throws(TallyCore.ValidationError) in try DayArgument(parsing: select) }
    }
  }

  func run(in context: CommandContext) async throws {
    let session = try await SessionOpener(options: global, context: context).open()
    let calendar = try session.calendar
    let today = try session.today
    let selected = try select.map { try DayArgument(parsing: $0).days(today: today)[0] }
    let view = try await TodayView.read(
      from: session.store, user: session.user, today: today, calendar: calendar, width: width,
      selectedDay: selected)
    if json {
      try session.output.json(view)
      return
    }
    TodayText.lines(view, calendar: calendar).forEach(session.output.line)
  }
}

/// The Today view in a terminal: a few lines of text and the grid as day numbers.
enum TodayText {
  static func lines(_ view: TodayView, calendar: DayCalendar) -> [String] {
    var lines = [calendar.spokenName(of: view.today, includingYear: true)]
    if view.selectedDay != view.today {
      lines.append("Selected: \(calendar.spokenName(of: view.selectedDay, includingYear: true))")
    }
    lines.append(view.dateRow.header)
    guard let grid = view.grid else { return lines }
    lines.append("")
    let columns = grid.layout.columns
    // Cells are 5 wide: [ 8]● for today, " 12• " for others; 14 columns fit 70 characters.
    let rows = stride(from: 0, to: grid.cells.count, by: columns).map {
      grid.cells[$0..<min($0 + columns, grid.cells.count)]
    }
    for row in rows {
      var line = ""
      for cell in row {
        let number = cell.dayNumber < 10 ? " \(cell.dayNumber)" : "\(cell.dayNumber)"
        let (open, close) =
          cell.tense == .today ? ("[", "]") : cell.isSelected ? ("(", ")") : (" ", " ")
        let mark = cell.hasEntry ? "●" : cell.hasChat && cell.tense != .future ? "•" : " "
        line += open + number + close + mark
      }
      while line.hasSuffix(" ") { line.removeLast() }
      lines.append(line)
    }
    lines.append("")
    lines.append("[ ] today  ● entry  • chat")
    return lines
  }
}
