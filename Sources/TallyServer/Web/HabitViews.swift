import Foundation
import TallyCore
import TallyStore

/// What the habit pages show of one habit, from its entries, as of today.
struct HabitSummary: Sendable {
  let id: String
  let name: String
  let icon: String?
  let color: String
  let group: String?
  let streakText: String
  let progressText: String
  /// `2 of 7`, for a place that already says "this week".
  let progressCount: String
  /// The weekly progress bar's filled width out of 100.
  let progressWidth: String
  let doneToday: Bool
  let nextStatus: String
  let miniGrid: MiniGrid
  let archived: Bool

  init(_ habit: Habit, history: HabitHistory, today: Day, calendar: DayCalendar) {
    let statistics = HabitStatistics(
      habit: habit, history: history, today: today, firstWeekday: calendar.firstWeekday)
    id = habit.id.storeText
    name = habit.name
    icon = habit.icon
    color = habit.color.css
    group = habit.group
    archived = habit.archived
    streakText = Self.streak(statistics.currentStreak, unit: statistics.streakUnit)
    let target =
      switch habit.frequency {
      case .daily: 7
      case .weekly(let k): k
      }
    progressCount = "\(statistics.completionsThisWeek) of \(target)"
    progressText = progressCount + " this week"
    progressWidth = DateCircleSVG.number(statistics.weeklyProgress * 100)
    doneToday = history.isCompleted(on: today)
    nextStatus = doneToday ? "none" : "done"
    miniGrid = MiniGrid(
      HabitGrid(
        habit: habit, history: history, today: today, firstWeekday: calendar.firstWeekday,
        weekCount: MiniGrid.weeks),
      color: habit.color.css)
  }

  static func streak(_ length: Int, unit: StreakUnit) -> String {
    let word = unit == .day ? "day" : "week"
    return length == 1 ? "1 \(word) streak" : "\(length) \(word)s streak"
  }
}

/// The small grid on a habit card: the last weeks as two SVG paths, done and not, so twenty
/// cards stay a few kilobytes each. It is a picture; the detail page has the grid to use.
struct MiniGrid: Sendable {
  static let weeks = 15
  static let cell = 8.0
  static let gap = 2.0

  let width: String
  let height: String
  let donePath: String
  let openPath: String
  let summary: String

  init(_ grid: HabitGrid, color: String) {
    var done = ""
    var open = ""
    var completed = 0
    var tracked = 0
    let pitch = Self.cell + Self.gap
    for (column, week) in grid.weeks.enumerated() {
      for (row, cell) in week.enumerated() {
        let square = "M\(Int(Double(column) * pitch)) \(Int(Double(row) * pitch))h8v8h-8z"
        switch cell.state {
        case .done:
          done += square
          completed += 1
          tracked += 1
        case .empty, .skipped:
          open += square
          tracked += 1
        case .beforeStart:
          open += square
        case .future:
          break
        }
      }
    }
    width = String(Int(Double(grid.weeks.count) * pitch - Self.gap))
    height = String(Int(7 * pitch - Self.gap))
    donePath = done
    openPath = open
    summary = "Last \(grid.weeks.count) weeks: \(completed) of \(tracked) days done"
  }
}

extension HabitSummary {
  /// The card on the Habits page, written here rather than in a template for the same reason
  /// as the date circles: twenty cards' template lookups were most of the page's time.
  /// Text from the user is escaped; the rest (ids, days, colours, numbers) is ours.
  func card(today: String) -> String {
    let name = HTMLText.escaped(self.name)
    let icon = self.icon.map { #"<span aria-hidden="true">\#(HTMLText.escaped($0))</span> "# } ?? ""
    let label = doneToday ? "✓ Done today" : "Mark done today"
    func move(_ direction: String, _ arrow: String) -> String {
      #"<form method="post" action="/habits/\#(id)/move" data-enhance><input type="hidden" name="direction" value="\#(direction)">"#
        + #"<button type="submit" class="icon-button" id="\#(direction)-\#(id)" aria-label="Move \#(name) \#(direction)">\#(arrow)</button></form>"#
    }
    return #"""
      <article class="habit-card" id="habit-\#(id)" aria-labelledby="name-\#(id)">
      <div class="card-head">
      <svg class="swatch" viewBox="0 0 12 12" width="12" height="12" aria-hidden="true"><circle cx="6" cy="6" r="6" fill="\#(color)"/></svg>
      <h3 id="name-\#(id)"><a href="/habits/\#(id)">\#(icon)\#(name)</a></h3>
      <span class="streak">\#(streakText)</span>
      </div>
      <div class="progress-row">
      <svg class="progress" viewBox="0 0 100 6" preserveAspectRatio="none" role="img" aria-label="\#(progressText)"><rect width="100" height="6" rx="3" class="track"/><rect width="\#(progressWidth)" height="6" rx="3" fill="\#(color)"/></svg>
      <span class="help">\#(progressText)</span>
      </div>
      <svg class="mini-grid" viewBox="0 0 \#(miniGrid.width) \#(miniGrid.height)" width="\#(miniGrid.width)" height="\#(miniGrid.height)" role="img" aria-label="\#(miniGrid.summary)"><path d="\#(miniGrid.openPath)" class="cell-empty"/><path d="\#(miniGrid.donePath)" fill="\#(color)"/></svg>
      <div class="card-actions">
      <form method="post" action="/habits/\#(id)/mark" data-enhance id="quick-\#(id)">
      <input type="hidden" name="day" value="\#(today)"><input type="hidden" name="status" value="\#(nextStatus)"><input type="hidden" name="back" value="/habits#habit-\#(id)">
      <button type="submit" class="quick\#(doneToday ? " is-done" : "")" aria-pressed="\#(doneToday)" id="quick-button-\#(id)">\#(label)<span class="visually-hidden">: \#(name)</span></button>
      </form>
      \#(move("up", "↑"))
      \#(move("down", "↓"))
      <form method="post" action="/habits/\#(id)/archive" data-enhance><button type="submit" class="icon-button" aria-label="Archive \#(name)">Archive</button></form>
      </div>
      </article>

      """#
  }
}
