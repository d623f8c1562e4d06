import Foundation
import TallyCore
import TallyHTTP
import TallyLocalization
import TallyStore

/// A habit's contribution grid (SPEC 4) as SVG, GitHub's way: weekday names down the side,
/// a month's short name over the week it begins in, a tooltip on every day, a slash on
/// skipped days and a dot on days with a note. Squares of 20 px sit 24 px apart, and each
/// day's link reaches into half the gutter on every side: a 24 × 24 px target (WCAG 2.5.8)
/// with no dead space between days (docs/web.md, "Habit grid targets").
extension HabitDetail {
  struct GridCell: Sendable {
    let day: String
    let label: String
    /// The day's name, which a label made offline starts with.
    let name: String
    let x: String
    let y: String
    let paint: Markup
    /// The skip slash and the note dot, drawn over the square.
    let marks: Markup
    /// The day's whole note, which a tap made offline keeps (an entry syncs whole).
    let note: String?
    let tabIndex: Int
    /// `paused` or `unscheduled` for a neutral day: the look offline.js gives it when cleared.
    let neutral: String?
  }

  /// How a square looks in one state, with the words a screen reader says for it: shipped
  /// in a `<template>` so a day marked offline is drawn by the same code (offline.js).
  struct CellLook: Sendable {
    let state: String
    let paint: Markup
    let marks: Markup
    let spoken: String
  }

  struct GridRow: Sendable {
    let letter: String
    let y: String
    let cells: [GridCell]
  }

  struct MonthLabel: Sendable {
    let x: String
    let text: String
  }

  struct Grid: Sendable {
    static let cell = 20.0
    static let gap = 4.0
    /// A day's target: the square and half the gutter around it.
    static let target = cell + gap
    static let labelWidth = 32.0
    /// Room above the first row for the month names.
    static let monthHeight = 16.0

    let width: String
    let height: String
    let layoutWidth: String
    let weeks: Int
    let months: [MonthLabel]
    let rows: [GridRow]
    /// Done, skipped, not done, and a note's dot: what offline.js paints a tapped day with.
    let looks: [CellLook]
    /// The key under the grid.
    let skippedLook: CellLook
    let notedLook: CellLook
    /// `&until=…` on links that should keep a grid paged back where it is; empty otherwise.
    let untilQuery: String
    /// The weeks before and after these, as pages of the same size (nil: none after today).
    let earlier: String
    let later: String?

    /// The grid ends with the week holding `until` (today when nil), or with the week of the
    /// day being edited when that would not show. The edited day, else the last day shown, is
    /// the grid's one tab stop.
    init(
      habit: Habit, entries: [HabitEntry], history: HabitHistory, today: Day, words: PageDays,
      width: Double, editing: Day?, until: Day? = nil
    ) {
      let calendar = words.calendar
      // The last column's target reaches half a gutter past its square, inside the width.
      let weekCount = GridGeometry.weekCount(
        width: width - Self.labelWidth - Self.gap / 2, cellSize: Self.cell, gap: Self.gap)
      var last = min(until ?? today, today)
      let shown = GridGeometry.weekStarts(weekCount: weekCount, today: last, firstWeekday: calendar.firstWeekday)
      if let editing, editing < shown[0] || editing > shown[shown.count - 1].adding(days: 6) { last = editing }
      let grid = HabitGrid(
        habit: habit, history: history, today: today, firstWeekday: calendar.firstWeekday, weekCount: weekCount,
        endingIn: last)
      let first = grid.weeks[0][0].day
      let end = grid.weeks[grid.weeks.count - 1][6].day
      let focused = editing ?? min(end, today)
      untilQuery = end < today ? "&until=\(last)" : ""
      earlier = "/habits/\(habit.id.storeText)?until=\(first.adding(days: -1))"
      let next = end.adding(days: 7 * weekCount)
      later = end >= today ? nil : "/habits/\(habit.id.storeText)" + (next < today ? "?until=\(next)" : "")
      let pitch = Self.cell + Self.gap
      let notes = Dictionary(entries.compactMap { e in e.note.map { (e.day, $0) } }, uniquingKeysWith: { a, _ in a })
      func x(_ column: Int) -> Double { Self.labelWidth + Double(column) * pitch }
      months = Self.monthLabels(grid, names: words.names).map {
        MonthLabel(x: DateCircleSVG.number(x($0.column)), text: $0.text)
      }
      rows = (0..<7).map { row in
        GridRow(
          letter: words.names.shortWeekdayName(grid.weeks[0][row].day.weekday),
          y: DateCircleSVG.number(Self.monthHeight + Double(row) * pitch + Self.cell / 2),
          cells: grid.weeks.enumerated().compactMap { column, week in
            let cell = week[row]
            guard cell.state != .future else { return nil }
            let note = notes[cell.day].flatMap { $0.isEmpty ? nil : $0 }
            let name = words.name(cell.day, near: today)
            var parts = [name, cell.amount.map { "\($0)" } ?? words.spoken(cell.state)]
            if let note {
              parts.append(words.t.text("habit.cellNote", ["note": note.count > 80 ? String(note.prefix(79)) + "…" : note]))
            }
            let label = parts.joined(separator: words.t.text("dayCell.separator"))
            return GridCell(
              day: cell.day.description, label: label, name: name,
              x: DateCircleSVG.number(x(column)), y: DateCircleSVG.number(Self.monthHeight + Double(row) * pitch),
              paint: Self.paint(cell.state, shareLevel: cell.shareLevel, color: habit.color.css),
              marks: Self.marks(skipped: cell.state == .skipped, noted: note != nil),
              note: note, tabIndex: cell.day == focused ? 0 : -1,
              neutral: history.isPaused(on: cell.day)
                ? "paused" : habit.frequency.isScheduled(on: cell.day) ? nil : "unscheduled")
          })
      }
      weeks = weekCount
      let color = habit.color.css
      func look(_ state: HabitGrid.State, noted: Bool = false) -> CellLook {
        CellLook(
          state: noted ? "noted" : "\(state)", paint: Self.paint(state, shareLevel: nil, color: color),
          marks: Self.marks(skipped: state == .skipped, noted: noted), spoken: words.spoken(state))
      }
      skippedLook = look(.skipped)
      notedLook = look(.empty, noted: true)
      looks = [look(.done), skippedLook, look(.empty), notedLook, look(.unscheduled), look(.paused)]
      self.width = DateCircleSVG.number(x(weekCount) - Self.gap / 2)
      height = DateCircleSVG.number(Self.monthHeight + 7 * pitch - Self.gap / 2)
      layoutWidth = DateCircleSVG.number(width)
    }

    /// A month's name over the first week holding its 1st; the first column is named too
    /// when the next name is far enough away not to collide with it.
    static func monthLabels(_ grid: HabitGrid, names: DayCalendar) -> [(column: Int, text: String)] {
      var labels: [(column: Int, text: String)] = []
      for (column, week) in grid.weeks.enumerated() {
        if let first = week.first(where: { $0.day.day == 1 }) {
          labels.append((column, names.shortMonthName(first.day.month)))
        }
      }
      if let start = grid.weeks.first?.first?.day, labels.first.map({ $0.column >= 3 }) ?? true {
        labels.insert((0, names.shortMonthName(start.month)), at: 0)
      }
      return labels
    }

    /// Done in the habit's colour, a measurable day as strong as its share of the target; the
    /// rest in theme classes so both themes read well.
    static func paint(_ state: HabitGrid.State, shareLevel: Int?, color: String) -> Markup {
      switch state {
      case .done:
        guard let level = shareLevel else { return #"fill="\#(color)""# }
        return #"fill="\#(color)" fill-opacity="\#(["0.2", "0.4", "0.6", "0.8", "1"][level])""#
      case .skipped: return #"class="cell-skipped""#
      case .beforeStart: return #"class="cell-before""#
      case .unscheduled: return #"class="cell-unscheduled""#
      case .paused: return #"class="cell-paused""#
      case .empty, .future: return #"class="cell-empty""#
      }
    }

    /// The skip slash and the note dot, drawn over the square.
    static func marks(skipped: Bool, noted: Bool) -> Markup {
      (skipped ? #"<path d="M6 14L14 6" class="skip-mark"/>"# : .empty)
        + (noted ? #"<circle cx="15.5" cy="4.5" r="3" class="note-mark"/>"# : .empty)
    }
  }
}
