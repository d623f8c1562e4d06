import Foundation
import TallyCore

/// Contribution grids drawn in a terminal, GitHub style: a column per week (oldest left),
/// a row per weekday from the user's first weekday, two characters per cell, so 38 weeks and
/// the weekday labels fit 80 columns. Colour is ANSI 24-bit and only for terminals; without it
/// every state still has its own character, so a pipe or a file tells the same story.
struct GridText {
  /// 4 columns of labels + 38 cells of 2, less the last space: 79.
  static let maxWeeks = 38
  static let labelWidth = 4

  let calendar: DayCalendar
  let colour: Bool

  // MARK: One habit

  static let habitLegend = "■ done  □ not done  × skipped  · before start"
  static let measuredLegend = "█ target  ▓ ▒ ░ part of it  □ nothing  × skipped  · before start"

  func lines(_ grid: HabitGrid, habit: Habit) -> [String] {
    let cells = grid.weeks.map { week in
      week.map { cell in
        cell.shareLevel.map { paint(Self.levelGlyphs[$0], habit.color) } ?? glyph(cell.state, colour: habit.color)
      }
    }
    // The neutral days' signs are explained only where the grid shows them.
    let states = Set(grid.weeks.joined().map(\.state))
    let legend = [
      habit.measure == nil ? Self.habitLegend : Self.measuredLegend,
      states.contains(.unscheduled) ? "- not scheduled" : nil, states.contains(.paused) ? "‖ paused" : nil,
    ]
    return draw(weekStarts: grid.weeks.map { $0[0].day }, cells: cells) + ["", legend.compactMap(\.self).joined(separator: "  ")]
  }

  func glyph(_ state: HabitGrid.State, colour habitColour: HexColor) -> String {
    switch state {
    case .future: return " "
    case .beforeStart: return paint("·", grey: 0x3A)
    case .done: return paint("■", habitColour)
    case .skipped: return paint("×", grey: 0x8A)
    case .empty: return paint("□", grey: 0x5A)
    case .unscheduled: return paint("-", grey: 0x3A)
    case .paused: return paint("‖", grey: 0x6A)
    }
  }

  // MARK: All habits

  static let levelGlyphs = ["□", "░", "▒", "▓", "█"]
  /// GitHub's dark-theme greens, level 0 to 4.
  static let levelColours = [
    HexColor(red: 0x2D, green: 0x33, blue: 0x3B), HexColor(red: 0x0E, green: 0x44, blue: 0x29),
    HexColor(red: 0x00, green: 0x6D, blue: 0x32), HexColor(red: 0x26, green: 0xA6, blue: 0x41),
    HexColor(red: 0x39, green: 0xD3, blue: 0x53),
  ]

  var activityLegend: String {
    "less " + (0...4).map { level(0, $0) }.joined(separator: " ") + " more"
  }

  func lines(_ grid: ActivityGrid) -> [String] {
    let cells = grid.weeks.map { week in
      week.map { cell in cell.isFuture ? " " : level(cell.tracked, cell.level) }
    }
    return draw(weekStarts: grid.weeks.map { $0[0].day }, cells: cells) + ["", activityLegend]
  }

  private func level(_ tracked: Int, _ level: Int) -> String {
    colour ? paint("■", Self.levelColours[level]) : Self.levelGlyphs[level]
  }

  // MARK: Drawing

  /// A month label over the first week holding the month's 1st, then one line per weekday.
  private func draw(weekStarts: [Day], cells: [[String]]) -> [String] {
    var header = String(repeating: " ", count: Self.labelWidth)
    for (index, start) in weekStarts.enumerated() {
      let column = Self.labelWidth + 2 * index
      let holdsFirst = (0..<7).contains { start.adding(days: $0).day == 1 }
      guard holdsFirst || index == 0 else { continue }
      let firstOfMonth = (0..<7).map { start.adding(days: $0) }.first { $0.day == 1 } ?? start
      let name = String(calendar.gregorian.shortMonthSymbols[firstOfMonth.month - 1].prefix(3))
      // Skip a label that would touch the one before it.
      guard header.count <= column - (index == 0 ? 0 : 1) else { continue }
      header += String(repeating: " ", count: column - header.count) + name
    }
    var lines = [header]
    for (row, weekday) in calendar.orderedWeekdays.enumerated() {
      var name = String(calendar.gregorian.shortWeekdaySymbols[weekday.rawValue - 1].prefix(3))
      name += String(repeating: " ", count: max(0, Self.labelWidth - name.count))
      var line = name
      for (index, week) in cells.enumerated() {
        line += (index == 0 ? "" : " ") + week[row]
      }
      while line.hasSuffix(" ") { line.removeLast() }
      lines.append(line)
    }
    return lines
  }

  private func paint(_ text: String, _ colour: HexColor) -> String {
    guard self.colour else { return text }
    return "\u{1B}[38;2;\(colour.red);\(colour.green);\(colour.blue)m\(text)\u{1B}[0m"
  }

  private func paint(_ text: String, grey: UInt8) -> String {
    paint(text, HexColor(red: grey, green: grey, blue: grey))
  }
}
