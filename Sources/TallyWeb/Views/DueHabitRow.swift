import Foundation

/// Today's habit rows, written here rather than in the template for the reason the Habits
/// page's cards are (`HabitSummary.card`): twenty rows' template lookups were most of the
/// page's time. The check marks still come from their templates (`partials/check-done`,
/// `partials/check-undone`), drawn once with a stand-in colour, as offline.js draws them.
extension TodayModel.DueHabit {
  /// The check marks cut where `TodayModel.CheckFragments().color` stands, for the habit's
  /// colour to be joined in.
  static let checks: (done: [Markup], undone: [Markup]) = (
    Templates.shared.markup(TodayModel.CheckFragments(), "partials/check-done")
      .split(at: TodayModel.CheckFragments().color),
    Templates.shared.markup(TodayModel.CheckFragments(), "partials/check-undone")
      .split(at: TodayModel.CheckFragments().color)
  )

  /// The row's `<li>`, ending in a line break; every text is escaped by ``Markup``.
  func row(selectedDay: String, back: String, isFuture: Bool) -> Markup {
    let disabled: Markup = isFuture ? " disabled" : .empty
    let form: Markup
    if let measure {
      let label = measure.label
      let unit: Markup = measure.unit.isEmpty ? .empty : #"<span class="unit" aria-hidden="true">\#(measure.unit)</span>"#
      form = #"""
        <form method="post" action="/habits/\#(id)/mark" data-enhance data-offline="entry" data-note="\#(note)" id="mark-\#(id)" class="amount-form">
        <input type="hidden" name="day" value="\#(selectedDay)">
        <input type="hidden" name="status" value="done">
        <input type="hidden" name="back" value="\#(back)">
        <label for="amount-\#(id)" class="visually-hidden">\#(label)</label>
        <input id="amount-\#(id)" name="amount" type="number" inputmode="decimal" min="0" step="any" value="\#(measure.amount)" class="amount-input"\#(disabled)>\#(unit)
        <button type="submit" class="secondary"\#(disabled)>\#(words.save)<span class="visually-hidden"> \#(label)</span></button>
        </form>

        """#
    } else {
      let check = (done ? Self.checks.done : Self.checks.undone).joined(separator: "\(color)")
      form = #"""

        <form method="post" action="/habits/\#(id)/mark" data-enhance data-offline="entry" data-note="\#(note)" data-color="\#(color)" id="mark-\#(id)">
        <input type="hidden" name="day" value="\#(selectedDay)">
        <input type="hidden" name="status" value="\#(nextStatus)">
        <input type="hidden" name="back" value="\#(back)">
        <button type="submit" class="check" aria-pressed="\#(done)" aria-label="\#(buttonLabel)"\#(disabled)>
        \#(check)
        </button>
        </form>
        """#
    }
    let icon: Markup = self.icon.map { #"<span class="icon" aria-hidden="true">\#($0)</span> "# } ?? .empty
    return #"""
      <li class="due\#(done ? " is-done" : "")">
      \#(form)
      <a class="due-name" href="/habits/\#(id)">\#(icon)\#(name)</a>
      <span class="due-detail">\#(detail)\#(skipped ? " · " + words.skipped : "")\#(self.note.isEmpty ? "" : " · " + words.hasNote)</span>
      </li>

      """#
  }
}
