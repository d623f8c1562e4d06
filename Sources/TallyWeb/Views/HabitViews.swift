import Foundation
import TallyCore
import TallyHTTP
import TallyLocalization
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
  /// Today's note, which a mark made offline carries unchanged (an entry syncs whole).
  let todayNote: String
  let miniGrid: MiniGrid
  let archived: Bool

  /// For a page that has made the habit's history and statistics of `entries` already.
  init(
    _ habit: Habit, entries: [HabitEntry], history: HabitHistory, statistics: HabitStatistics, today: Day,
    words: Words
  ) {
    id = habit.id.storeText
    name = habit.name
    icon = habit.icon
    color = habit.color.css
    group = habit.group
    archived = habit.archived
    streakText = words.streak(statistics.currentStreak, unit: statistics.streakUnit)
    let figures = statistics.progressFigures(of: habit)
    progressCount = words.progress(["done": figures.done, "goal": figures.goal])
    progressText = words.progressIn(["progress": progressCount, "period": words.period(of: habit)])
    progressWidth = DateCircleSVG.number(statistics.weeklyProgress * 100)
    doneToday = history.isCompleted(on: today)
    nextStatus = doneToday ? "none" : "done"
    todayNote = entries.last { $0.day == today }?.note ?? ""
    miniGrid = MiniGrid(
      HabitGrid(
        habit: habit, history: history, today: today, firstWeekday: words.firstWeekday,
        weekCount: MiniGrid.weeks),
      color: habit.color.css, words: words)
  }
}

/// The small grid on a habit card: the last half year, drawn as dashed vertical strokes (a
/// dash per day, one stroke per run of equal days in a week) so twenty cards stay a few
/// kilobytes each while the picture stretches to the card's width. It is a picture; the
/// detail page has the grid to use.
struct MiniGrid: Sendable {
  static let weeks = 26
  static let cell = 8
  static let gap = 2

  let width: String
  let height: String
  let donePath: String
  let skippedPath: String
  let openPath: String
  let summary: String

  init(_ grid: HabitGrid, color: String, words: HabitSummary.Words) {
    var paths: [HabitGrid.State: String] = [:]
    var completed = 0
    var tracked = 0
    let pitch = Self.cell + Self.gap
    for (column, week) in grid.weeks.enumerated() {
      var row = 0
      while row < week.count {
        let state = Self.kind(week[row].state)
        var end = row + 1
        while end < week.count, Self.kind(week[end].state) == state { end += 1 }
        if state != .future {
          paths[state, default: ""] += "M\(column * pitch + Self.cell / 2) \(row * pitch)v\((end - row) * pitch - Self.gap)"
        }
        row = end
      }
      for cell in week where cell.state != .future && cell.state != .beforeStart {
        tracked += 1
        if cell.state == .done { completed += 1 }
      }
    }
    width = String(grid.weeks.count * pitch - Self.gap)
    height = String(7 * pitch - Self.gap)
    donePath = paths[.done] ?? ""
    skippedPath = paths[.skipped] ?? ""
    openPath = paths[.empty] ?? ""
    summary = words.miniGrid(
      count: tracked, ["weeks": words.number(grid.weeks.count), "done": words.number(completed)])
  }

  /// Days before tracking began are drawn as not done.
  private static func kind(_ state: HabitGrid.State) -> HabitGrid.State {
    state == .beforeStart ? .empty : state
  }
}

extension HabitSummary {
  /// The sentences every summary says with its own figures, and the account's first weekday.
  struct Words: Sendable {
    let firstWeekday: Weekday
    private let said: Said

    init(_ days: PageDays) {
      firstWeekday = days.calendar.firstWeekday
      said = Self.saidIn(days.speech)
    }

    /// A language's sentences and card words, looked up once per process: each page of cards
    /// looked them up again, which cost a habits page more than its cards' own lookups (perf
    /// record).
    private static let saidIn = DrawnOnce(capacity: 32) { (speech: PageSpeech) in Said(speech.translator) }

    private struct Said: Sendable {
      let translator: Translator
      let streaks: [StreakUnit: PluralSentence]
      let progress: Sentence
      let progressIn: Sentence
      let miniGrid: PluralSentence
      let periods: [ProgressPeriod: String]
      let card: CardWords

      init(_ t: Translator) {
        translator = t
        card = CardWords(t)
        streaks = Dictionary(uniqueKeysWithValues: StreakUnit.allCases.map { ($0, t.pluralSentence("streak.\($0.rawValue)")) })
        progress = t.sentence("habits.progress")
        progressIn = t.sentence("habits.progressIn")
        miniGrid = t.pluralSentence("habits.miniGrid")
        periods = Dictionary(uniqueKeysWithValues: ProgressPeriod.allCases.map { ($0, t.text($0.key)) })
      }
    }

    /// `2 of 7`; `3.5 of 5 km` for measurable habits.
    var progress: Sentence { said.progress }
    /// `2 of 7 this week`.
    var progressIn: Sentence { said.progressIn }
    var miniGrid: PluralSentence { said.miniGrid }
    var card: CardWords { said.card }

    func number(_ number: Int) -> String { said.translator.number(number) }

    /// "3 day streak", "2 week streak"…
    func streak(_ length: Int, unit: StreakUnit) -> String { said.streaks[unit]!(count: length) }

    /// The period a habit's progress counts over: "this week", "this month"…
    func period(of habit: Habit) -> String { said.periods[ProgressPeriod(of: habit)]! }
  }

  /// The words every card says alike.
  struct CardWords: Sendable {
    /// Short enough to share one line with the move and archive buttons on a phone; on the
    /// button too, for the label a tap made offline shows.
    let done: String
    let markDone: String
    let archive: String
    /// Each names the habit (`habit`).
    let moveUp: Sentence
    let moveDown: Sentence
    let archiveLabel: Sentence

    init(_ t: Translator) {
      done = t.text("habits.done")
      markDone = t.text("habits.markDone")
      archive = t.text("habits.archive")
      moveUp = t.sentence("habits.moveUp")
      moveDown = t.sentence("habits.moveDown")
      archiveLabel = t.sentence("habits.archiveLabel")
    }
  }

  /// The card on the Habits page, written here rather than in a template for the same reason
  /// as the date circles: twenty cards' template lookups were most of the page's time.
  /// Every text is escaped by ``Markup``.
  func card(today: String, words: CardWords) -> Markup {
    let icon: Markup = self.icon.map { #"<span aria-hidden="true">\#($0)</span> "# } ?? .empty
    let label = doneToday ? words.done : words.markDone
    func move(_ direction: String, _ arrow: String) -> Markup {
      let spoken = (direction == "up" ? words.moveUp : words.moveDown)(["habit": name])
      return #"<form method="post" action="/habits/\#(id)/move" data-enhance><input type="hidden" name="direction" value="\#(direction)">"#
        + #"<button type="submit" class="icon-button" id="\#(direction)-\#(id)" aria-label="\#(spoken)">\#(arrow)</button></form>"#
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
      <svg class="mini-grid" viewBox="0 0 \#(miniGrid.width) \#(miniGrid.height)" role="img" aria-label="\#(miniGrid.summary)"><path d="\#(miniGrid.openPath)" class="mini-open"/><path d="\#(miniGrid.skippedPath)" class="mini-skipped"/><path d="\#(miniGrid.donePath)" stroke="\#(color)"/></svg>
      <div class="card-actions">
      <form method="post" action="/habits/\#(id)/mark" data-enhance data-offline="entry" data-note="\#(todayNote)" id="quick-\#(id)">
      <input type="hidden" name="day" value="\#(today)"><input type="hidden" name="status" value="\#(nextStatus)"><input type="hidden" name="back" value="/habits#habit-\#(id)">
      <button type="submit" class="quick\#(doneToday ? " is-done" : "")" aria-pressed="\#(doneToday)" id="quick-button-\#(id)" data-done-label="\#(words.done)" data-undone-label="\#(words.markDone)">\#(label)<span class="visually-hidden">: \#(name)</span></button>
      </form>
      \#(move("up", "↑"))
      \#(move("down", "↓"))
      <form method="post" action="/habits/\#(id)/archive" data-enhance><button type="submit" class="icon-button" aria-label="\#(words.archiveLabel(["habit": name]))">\#(words.archive)</button></form>
      </div>
      </article>

      """#
  }
}
