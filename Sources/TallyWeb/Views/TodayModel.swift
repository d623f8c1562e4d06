import Foundation
import TallyCore
import TallyHTTP
import TallyLocalization
import TallyStore
import TallyWire

/// What the Today page template shows, read from the store for one selected day.
struct TodayModel: Sendable {
  /// A row of circles as SVG.
  struct Row: Sendable {
    let markup: Markup
  }

  /// The date picker as one SVG: the engine's layout gives every centre (SPEC 5).
  struct DateGrid: Sendable {
    let width: String
    /// Where the drawn part starts in the layout's coordinates.
    let originX: String
    let height: String
    let layoutWidth: String
    let columns: Int
    /// For a grid at its widest (14 columns at 20, centred), the narrowest screen that draws
    /// the same picture: any wider one needs no new layout.
    let wideFrom: String?
    let rows: [Row]
  }

  struct DateStrip: Sendable {
    let header: String
    let width: String
    let markup: Markup
    /// An empty box over each circle for the row's scroll to snap to (an SVG shape is no
    /// snap area), so the row comes to rest on whole circles (docs/web.md, Today).
    let snaps: Markup
    /// The day the strip scrolls to, or `header` (SPEC 5), and which edge it aligns to.
    let scrollTo: String
    let scrollAnchor: String
  }

  /// A message's time is the instant it was written (docs/today-view.md): its clock time,
  /// and the day it was written on when that is not the day it is filed under.
  struct Message: Sendable {
    let id: String
    let text: String
    let role: String
    let time: String
    /// "written Monday 2 March, 23:50" when that day is not the one it is filed under.
    let writtenOn: String?
    let instant: String
    let assistant: Bool
    /// Written offline and not yet sent: no edit form, and said so.
    var waiting = false
    /// Which message an edit form is for, said to a screen reader.
    var editWhich = ""
  }

  /// The check circles' fragments, drawn with this word where a habit's colour goes;
  /// offline.js puts the habit's colour in its place.
  struct CheckFragments: Sendable {
    let color = "habit-color"
  }

  /// The message offline.js fills in for one written offline.
  static func pendingMessage(_ speech: PageSpeech) -> Message {
    Message(
      id: "", text: "", role: speech.translator.text("message.you"), time: "", writtenOn: nil, instant: "",
      assistant: false, waiting: true)
  }

  // The `<template>`s offline.js draws from hold no one's data: drawn once per process.
  static let checkTemplates = Templates.shared.markup(CheckFragments(), "partials/check-templates")
  static let messageTemplates = DrawnOnce(capacity: 32) { (speech: PageSpeech) in
    Templates.shared.markup(pendingMessage(speech), "partials/message-template", words: speech.translator)
  }

  struct DueHabit: Sendable {
    let id: String
    let name: String
    let icon: String?
    let color: String
    let done: Bool
    let skipped: Bool
    let detail: String
    let nextStatus: String
    /// The day's note, which a mark made offline carries unchanged (an entry syncs whole).
    let note: String
    let buttonLabel: String
    /// For a measurable habit: a number field instead of the check.
    let measure: DueMeasure?
    /// Whether the day is one the habit asks for: neither paused nor outside its weekdays.
    /// Other habits are listed apart, still markable (an extra session counts).
    let isDue: Bool
    let words: DueWords
  }

  /// The few words every habit row says alike, looked up once per page.
  struct DueWords: Sendable {
    let save: String
    let skipped: String
    let hasNote: String

    init(_ t: Translator) {
      save = t.text("due.save")
      skipped = t.text("due.skipped")
      hasNote = t.text("due.hasNote")
    }
  }

  struct DueMeasure: Sendable {
    /// The day's amount as typed, empty when none.
    let amount: String
    let unit: String
    let label: String
  }

  let today: String
  /// Whose page it is, so drafts kept in the browser stay with their account.
  let owner: String
  let selectedDay: String
  let heading: String
  /// The journal field's spoken label, which names the day.
  let journalLabel: String
  let isFuture: Bool
  let showsTodayButton: Bool
  let streakBadge: String?
  let grid: DateGrid?
  let strip: DateStrip?
  let journalText: String
  let hasEntry: Bool
  let messages: [Message]
  let habits: [DueHabit]
  /// The habits' rows, drawn by ``DueHabit/row(selectedDay:back:isFuture:)``: those due on
  /// the day, then those resting (paused, or not on one of their weekdays).
  let dueRows: Markup
  let restRows: Markup
  /// The pauses of all habits that hold today or lie ahead ("Pause all until …" adds one).
  let vacations: [PauseRow]
  let onVacation: Bool
  /// What "Resume all habits today" makes of each pause of all habits, for the offline app.
  let resumeChanges: String
  let back: String
  let messageTemplate: Markup

  /// `days` are the user's kept habits and their days (``HabitHistories``): the habits, the
  /// week's marks and a period's amounts come from them rather than from a query per habit.
  static func read(
    from store: any Store, days: HabitHistories.Read, user: User, time: UserTime, selected: Day, width: Double,
    speech: PageSpeech
  ) async throws -> TodayModel {
    let calendar = time.calendar
    let today = time.today
    let words = PageDays(speech: speech, calendar: calendar)
    let view = try await TodayView.read(
      from: store, user: user, today: today, calendar: calendar, width: width, selectedDay: selected)
    let entry = try await store.journalEntry(on: selected, for: user.id)
    let chat = try await store.chatMessages(on: selected, for: user.id)
    let habits = days.habits(includingArchived: false)
    let week = calendar.startOfWeek(containing: selected)...calendar.startOfWeek(containing: selected).adding(days: 6)
    let dayName = words.name(selected)
    let rowWords = DueWords(speech.translator)
    let dueHabits = habits.map { habit in
      let kept = days.days(of: habit.id)
      return due(
        habit, on: selected, weekEntries: kept.entries(in: week),
        periodEntries: periodEntries(of: habit, on: selected, calendar: calendar, entries: kept), words: words,
        rowWords: rowWords,
        isDue: habit.isScheduled(on: selected, history: kept.history))
    }
    func rows(_ habits: [DueHabit]) -> Markup {
      habits.map {
        $0.row(selectedDay: selected.description, back: "/today?day=\(selected)", isFuture: selected > today)
      }.joined()
    }
    return TodayModel(
      today: today.description,
      owner: user.id.storeText,
      selectedDay: selected.description,
      heading: selected == today ? speech.translator.text("today.headingToday", ["day": dayName]) : dayName,
      journalLabel: speech.translator.text("today.journalLabel", ["day": dayName]),
      isFuture: selected > today,
      showsTodayButton: view.showsTodayButton,
      streakBadge: words.streakBadge(view.streak),
      grid: view.grid.map { drawnGrids(Spoken(source: $0, days: words, today: today)) },
      strip: view.grid == nil ? drawnStrips(Spoken(source: view.dateRow, days: words, today: today)) : nil,
      journalText: entry?.text ?? "",
      hasEntry: entry != nil,
      messages: chat.map { message(for: $0, words: words, today: today) },
      habits: dueHabits,
      dueRows: rows(dueHabits.filter(\.isDue)),
      restRows: rows(dueHabits.filter { !$0.isDue }),
      vacations: PauseRow.rows(days.pauses.filter { $0.habitID == nil }, habit: nil, today: today, words: words),
      onVacation: days.pauses.contains { $0.habitID == nil && $0.days.contains(today) },
      resumeChanges: PauseRow.resumeChanges(days.pauses.filter { $0.habitID == nil }, on: today),
      back: "/today?day=\(selected)",
      messageTemplate: messageTemplates(speech))
  }

  static func message(for message: ChatMessage, words: PageDays, today: Day) -> Message {
    let written = words.calendar.day(containing: message.sentAt)
    return Message(
      id: message.id.storeText, text: message.text,
      role: words.t.text(message.role == .user ? "message.you" : "message.assistant"),
      time: words.time(of: message.sentAt),
      writtenOn: written == message.day
        ? nil
        : words.t.text(
          "message.writtenAt", ["day": words.name(written, near: today), "time": words.time(of: message.sentAt)]),
      instant: InstantText.text(message.sentAt), assistant: message.role == .assistant,
      editWhich: words.t.text("message.editWhich", ["time": words.time(of: message.sentAt)]))
  }

  /// A few grids and strips per active user, each up to about 25 KiB of markup.
  static let drawnGrids = DrawnOnce(capacity: 64, draw: grid(for:))
  static let drawnStrips = DrawnOnce(capacity: 64, draw: strip(for:))

  static func grid(for spoken: Spoken<DatePickerGrid>) -> DateGrid {
    let grid = spoken.source
    let layout = grid.layout
    let cells = grid.cells.enumerated().map { index, cell in
      DateCircleSVG(
        cell, at: layout.centre(ofCell: index), label: spoken.days.label(of: cell, today: spoken.today),
        name: spoken.days.name(cell.day, near: spoken.today))
    }
    let rows = stride(from: 0, to: cells.count, by: layout.columns).map {
      Row(markup: cells[$0..<min($0 + layout.columns, cells.count)].map(\.markup).joined())
    }
    let height = Double(layout.rows) * DatePickerMetrics.cellSize + Double(layout.rows - 1) * layout.spacing
    // W is the screen's width (SPEC 5). A wide screen's centring offset is left to CSS, which
    // centres the picture, so the card need only be as wide as the grid and its padding.
    let drawn = layout.width - 2 * layout.leadingOffset
    let widest = layout.columns == DatePickerMetrics.columnRange.upperBound
      && layout.spacing == DatePickerMetrics.spacingRange.upperBound
    return DateGrid(
      width: DateCircleSVG.number(drawn), originX: DateCircleSVG.number(layout.leadingOffset),
      height: DateCircleSVG.number(height), layoutWidth: DateCircleSVG.number(layout.width),
      columns: layout.columns, wideFrom: widest ? DateCircleSVG.number(drawn) : nil, rows: rows)
  }

  /// The 33-day row at the base spacing, scrolled by its container.
  static func strip(for spoken: Spoken<DateRow>) -> DateStrip {
    let row = spoken.source
    let pitch = DatePickerMetrics.cellSize + DatePickerMetrics.baseSpacing
    let half = DatePickerMetrics.cellSize / 2
    let cells = row.cells.enumerated().map { index, cell in
      DateCircleSVG(
        cell, at: GridPoint(x: half + Double(index) * pitch, y: half), label: spoken.days.label(of: cell, today: spoken.today),
        name: spoken.days.name(cell.day, near: spoken.today))
    }
    let (target, anchor): (String, String) =
      switch row.scrollTarget {
      case .day(let index, let anchor): (row.cells[index].day.description, anchor.rawValue)
      case .header: ("header", "leading")
      }
    return DateStrip(
      header: spoken.days.stripHeader(row),
      width: DateCircleSVG.number(Double(cells.count) * pitch - DatePickerMetrics.baseSpacing),
      markup: cells.map(\.markup).joined(), snaps: .repeating("<i></i>", count: cells.count),
      scrollTo: target, scrollAnchor: anchor)
  }

  /// A measurable habit counted by the month or by blocks of days: the entries of the period
  /// holding `day`, so Today's total is that period's rather than the week's; `nil` otherwise.
  static func periodEntries(
    of habit: Habit, on day: Day, calendar: DayCalendar, entries: HabitHistories.Habit
  ) -> [HabitEntry]? {
    switch (habit.measure, habit.frequency) {
    case (.some, .timesInDays), (.some, .monthly): break
    default: return nil
    }
    let upToDay = entries.entries(in: Day.allTime.lowerBound...day)
    let start = HabitHistory(upToDay).trackingStart(createdDay: habit.createdDay)
    let period = habit.frequency.period(containing: day, anchor: start, firstWeekday: calendar.firstWeekday)
    return upToDay.filter { period.contains($0.day) }
  }

  static func due(
    _ habit: Habit, on day: Day, weekEntries: [HabitEntry], periodEntries: [HabitEntry]? = nil, words: PageDays,
    rowWords: DueWords, isDue: Bool = true
  ) -> DueHabit {
    let t = words.t
    let dayName = words.name(day)
    let entry = weekEntries.first { $0.day == day }
    let status = entry?.status
    let doneThisWeek = weekEntries.filter { $0.status == .done && $0.day <= day }.count
    func ofThisWeek(_ target: Int) -> String {
      t.plural("due.doneThisWeek", count: target, ["done": t.number(doneThisWeek)])
    }
    let detail: String =
      switch habit.frequency {
      case .daily: t.text("due.daily")
      case .weekly(let target): ofThisWeek(target)
      case .weekdays(let days):
        !habit.frequency.isScheduled(on: day)
          ? t.text("due.notOnWeekday", ["weekday": words.weekdayName(day.weekday)]) : ofThisWeek(days.count)
      case .timesInDays, .monthly: words.schedule(habit.frequency)
      }
    let done = status == .done
    let measure = habit.measure.map { measure in
      let total = (periodEntries ?? weekEntries).filter { $0.day <= day }.compactMap(\.amount).reduce(.zero, +)
      let amount = entry?.amount
      let unit = measure.unit.isEmpty ? "" : " \(measure.unit)"
      let target = t.text(measure.direction == .atMost ? "due.atMost" : "due.goal", ["target": "\(measure.target)\(unit)"])
      let soFar = t.text("due.soFar", ["total": "\(total)", "period": words.progressPeriod(of: habit)])
      return (
        DueMeasure(
          amount: amount?.description ?? "", unit: measure.unit,
          label: measure.unit.isEmpty
            ? t.text("due.amountLabel", ["habit": habit.name, "day": dayName])
            : t.text("due.amountLabelWithUnit", ["habit": habit.name, "day": dayName, "unit": measure.unit])),
        target + (habit.frequency == .daily ? "" : " · " + soFar))
    }
    return DueHabit(
      id: habit.id.storeText, name: habit.name, icon: habit.icon, color: habit.color.css,
      done: done, skipped: status == .skipped,
      detail: isDue || !habit.frequency.isScheduled(on: day) ? measure?.1 ?? detail : t.text("due.paused"),
      nextStatus: done ? "none" : "done", note: entry?.note ?? "",
      buttonLabel: t.text("due.doneLabel", ["habit": habit.name, "day": dayName]), measure: measure?.0,
      isDue: isDue, words: rowWords)
  }
}
