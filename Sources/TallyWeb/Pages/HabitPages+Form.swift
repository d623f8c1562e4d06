import Foundation
import Hummingbird
import TallyCore
import TallyHTTP
import TallyLocalization
import TallyStore

/// The habit form's page: the words and choices it shows, for a new habit or one being edited.
extension HabitPages {
  struct FormModel: Sendable {
    struct Swatch: Sendable {
      let hex: String
      let checked: Bool
    }

    struct DayBox: Sendable {
      /// The field's name (`monday`), and the day as the page's language names it.
      let name: String
      let label: String
      let checked: Bool
    }

    struct Target: Sendable {
      let value: String
      let label: String
      let checked: Bool
    }

    struct Icon: Sendable {
      let icon: String
      let label: String
    }

    let form: HabitForm
    let action: String
    let heading: String
    let button: String
    let error: String?
    let errorField: String
    let swatches: [Swatch]
    let groups: [String]
    let targets: [Target]
    let icons: [Icon]
    let isWeekly: Bool
    let isCustom: Bool
    let isWeekdays: Bool
    /// The weekday boxes, from the user's first weekday.
    let weekdays: [DayBox]
    let isMeasurable: Bool
    let isAtMost: Bool
    let reminderNone: Bool
    let reminderSingle: Bool
    let reminderPeriodic: Bool
    let habitID: String?
  }

  func formPage(
    _ form: HabitForm, habitID: UUID?, error: HabitForm.Invalid?, user: User, request: Request
  ) async throws -> HTMLPage {
    let speech = PageLanguages.speech(for: request, user: user)
    let t = speech.translator
    let words = PageDays(speech: speech, calendar: try services.time(for: user).calendar)
    let habits = try await services.store.habits(for: user.id, includingArchived: true)
    let groups = Array(Set(habits.compactMap(\.group))).sorted()
    let chosen = form.color.uppercased()
    var swatches = HabitForm.palette.map { FormModel.Swatch(hex: $0, checked: $0 == chosen) }
    if !swatches.contains(where: \.checked) {
      swatches.append(FormModel.Swatch(hex: chosen.hasPrefix("#") ? chosen : "#" + chosen, checked: true))
    }
    let model = FormModel(
      form: form, action: habitID.map { "/habits/\($0.storeText)" } ?? "/habits",
      heading: habitID == nil ? t.text("habitForm.new") : t.text("habitForm.edit", ["habit": form.name]),
      button: t.text(habitID == nil ? "habits.add" : "habitForm.save"),
      error: error.map { ProblemSpeech.sentence(for: $0.rule, in: t) ?? $0.message },
      errorField: error?.field ?? "", swatches: swatches, groups: groups,
      targets: (1...6).map {
        FormModel.Target(value: String($0), label: t.plural("schedule.weekly", count: $0), checked: String($0) == form.target)
      },
      icons: HabitForm.icons.map { FormModel.Icon(icon: $0.icon, label: t.text("icons.\($0.key)")) },
      isWeekly: form.frequency == "weekly", isCustom: form.frequency == "custom",
      isWeekdays: form.frequency == "weekdays",
      weekdays: (0..<7).map { offset in
        let day = Weekday(rawValue: (user.settings.firstWeekday.rawValue - 1 + offset) % 7 + 1)!
        return FormModel.DayBox(name: day.name, label: words.weekdayName(day), checked: form.weekdays.contains(day))
      },
      isMeasurable: form.kind == "measurable", isAtMost: form.direction == "atMost", reminderNone: form.reminder == "none",
      reminderSingle: form.reminder == "single", reminderPeriodic: form.reminder == "periodic",
      habitID: habitID?.storeText)
    return Templates.shared.page(
      "habit-form", title: model.heading, section: .habits, user: user, request: request, content: model,
      status: error == nil ? .ok : .unprocessableContent, speech: speech)
  }
}
