import Foundation
import TallyCore

/// Loop Habit Tracker's values in Tally's terms: the rules both Loop readers share.
public enum LoopMapping {
  /// Loop's 20-colour palette, by the `color` index its database stores (the CSV export
  /// writes these hex values).
  public static let palette: [HexColor] = [
    0xD32F2F, 0xE64A19, 0xF57C00, 0xFF8F00, 0xF9A825, 0xAFB42B, 0x7CB342, 0x388E3C, 0x00897B, 0x00ACC1,
    0x039BE5, 0x1976D2, 0x303F9F, 0x5E35B1, 0x8E24AA, 0xD81B60, 0x5D4037, 0x303030, 0x757575, 0xAAAAAA,
  ].map { HexColor(red: UInt8($0 >> 16), green: UInt8(($0 >> 8) & 0xFF), blue: UInt8($0 & 0xFF)) }

  /// The palette colour, or `nil` for an index Loop does not have.
  public static func color(index: Int) -> HexColor? {
    palette.indices.contains(index) ? palette[index] : nil
  }

  /// Loop's "`numerator` times in `denominator` days" as the nearest Tally frequency, and a
  /// sentence saying what changed when it is not exact. 1/1 and 7/7 are daily, k/7 weekly k;
  /// anything else keeps its rate per week, rounded, from 1 a week up to daily.
  public static func frequency(numerator: Int, denominator: Int) -> (Frequency, change: String?) {
    if numerator == denominator { return (.daily, nil) }
    if denominator == 7, Frequency.weeklyTargets.contains(numerator) {
      return (.weekly(targetPerWeek: numerator), nil)
    }
    let perWeek = Double(numerator) * 7 / Double(denominator)
    let target = Int(perWeek.rounded())
    let frequency: Frequency = target >= 7 ? .daily : .weekly(targetPerWeek: max(1, target))
    let was = "\(numerator) \(numerator == 1 ? "time" : "times") in \(denominator) days"
    return (frequency, "its frequency '\(was)' became \(describe(frequency))")
  }

  /// A habit's frequency, and warnings for what changed: a numeric habit becomes a daily
  /// yes-or-no one, and a description is not kept.
  static func frequency(
    numerator: Int, denominator: Int, target: Target?, description: String, habit: String
  ) -> (Frequency, [ImportWarning]) {
    var warnings: [ImportWarning] = []
    var (frequency, change) = LoopMapping.frequency(numerator: numerator, denominator: denominator)
    if let target {
      // Each day is done or not on its own, so the target is read per day.
      frequency = .daily
      let period = denominator == 1 ? "day" : "\(denominator) days"
      let goal = "\(target.atMost ? "at most" : "at least") \(target.text(target.value))"
      warnings.append(
        ImportWarning(
          habit: habit,
          "a numeric habit (\(goal) per \(period)) became a daily yes-or-no habit: a day is done when its amount is \(goal), and the amount is kept in its note"
        ))
    } else if let change {
      warnings.append(ImportWarning(habit: habit, change))
    }
    if !description.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
      warnings.append(ImportWarning(habit: habit, "its description is not kept (Tally habits have none)"))
    }
    return (frequency, warnings)
  }

  static func describe(_ frequency: Frequency) -> String { frequency.text }

  /// Loop's checkmark values.
  public enum Checkmark: Equatable, Sendable {
    /// Done by the person (2, YES_MANUAL).
    case yesManual
    /// Filled in by Loop because the frequency was met (1, YES_AUTO): not something done.
    case yesAuto
    /// 0, NO.
    case no
    /// 3, SKIP.
    case skip
    /// -1, UNKNOWN: nothing recorded (a note on an empty day).
    case unknown
    /// A numeric habit's amount (the database stores it × 1000).
    case amount(Double)
  }

  /// A database value: boolean habits store the codes, numeric ones the amount × 1000 but
  /// for 3 (skipped) and -1 (unknown), which Loop reads as such there too.
  public static func checkmark(value: Int, numeric: Bool) -> Checkmark? {
    if numeric {
      switch value {
      case -1: return .unknown
      case 3: return .skip
      case 0...: return .amount(Double(value) / 1000)
      default: return nil
      }
    }
    switch value {
    case 2: return .yesManual
    case 1: return .yesAuto
    case 0: return .no
    case 3: return .skip
    case -1: return .unknown
    default: return nil
    }
  }

  /// A CSV export value: the names, or for numeric habits the amount × 1000 as a number.
  public static func checkmark(text: String, numeric: Bool) -> Checkmark? {
    switch text {
    case "YES_MANUAL": return .yesManual
    case "YES_AUTO": return .yesAuto
    case "NO": return numeric ? .amount(0) : .no
    case "SKIP": return .skip
    case "UNKNOWN": return .unknown
    default:
      guard let value = Int(text) else { return nil }
      return checkmark(value: value, numeric: numeric)
    }
  }

  /// A numeric habit's target: amounts that meet it make a day done.
  public struct Target: Equatable, Sendable {
    public var value: Double
    /// Loop's "at most" targets (target type 1): a day is done when an amount is recorded and
    /// it is no more than the target.
    public var atMost: Bool
    public var unit: String

    public init(value: Double, atMost: Bool, unit: String) {
      self.value = value
      self.atMost = atMost
      self.unit = unit
    }

    func isMet(by amount: Double) -> Bool {
      atMost ? amount <= value : amount >= value && amount > 0
    }

    /// "15 pages", "2.5 hours".
    func text(_ amount: Double) -> String {
      let number = amount == amount.rounded() ? String(Int(amount)) : String(amount)
      return unit.isEmpty ? number : "\(number) \(unit)"
    }
  }

  /// One habit's checkmarks as Tally entries, with warnings for what Tally cannot hold.
  ///
  /// - YES_MANUAL is done, SKIP skipped; YES_AUTO, NO and UNKNOWN are no entry.
  /// - A numeric habit's day is done when its amount meets the target; the amount goes first
  ///   in the note ("15 pages"), so it is kept.
  /// - A note on a day with no entry cannot be kept: it is counted in a warning.
  /// - Days after `today` are left out, with a warning.
  public static func entries(
    _ marks: [(day: Day, mark: Checkmark, note: String)], target: Target?, habit: String, today: Day
  ) -> (entries: [HabitEntry], warnings: [ImportWarning]) {
    var entries: [HabitEntry] = []
    entries.reserveCapacity(marks.count)
    var droppedNotes: [Day] = []
    var belowTarget = 0
    var future = 0
    for (day, mark, note) in marks.sorted(by: { $0.day < $1.day }) {
      guard day <= today else {
        future += 1
        continue
      }
      var text = note.trimmingCharacters(in: .whitespacesAndNewlines)
      let status: EntryStatus?
      switch mark {
      case .yesManual: status = .done
      case .skip: status = .skipped
      case .yesAuto, .no, .unknown: status = nil
      case .amount(let amount):
        if let target, target.isMet(by: amount) {
          status = .done
          text = text.isEmpty ? target.text(amount) : "\(target.text(amount)): \(text)"
        } else {
          status = nil
          if amount != 0 { belowTarget += 1 }
        }
      }
      guard let status else {
        if !text.isEmpty { droppedNotes.append(day) }
        continue
      }
      entries.append(HabitEntry(day: day, status: status, note: text.isEmpty ? nil : text))
    }
    var warnings: [ImportWarning] = []
    if !droppedNotes.isEmpty {
      let days = droppedNotes.prefix(5).map(\.description).joined(separator: ", ")
      let more = droppedNotes.count > 5 ? " and \(droppedNotes.count - 5) more" : ""
      warnings.append(
        ImportWarning(
          habit: habit,
          "\(count(droppedNotes.count, "note")) on days not done could not be kept (Tally keeps notes on done or skipped days): \(days)\(more)"
        ))
    }
    if belowTarget > 0, let target {
      warnings.append(
        ImportWarning(
          habit: habit,
          "\(count(belowTarget, "day")) with an amount \(target.atMost ? "above" : "below") the target of \(target.text(target.value)) became not done"
        ))
    }
    if future > 0 {
      warnings.append(ImportWarning(habit: habit, "\(count(future, "day")) after today (\(today)) left out"))
    }
    return (entries, warnings)
  }

  /// The first day with something recorded, up to today: YES_AUTO is Loop's filling (its CSV
  /// export lists it even before the first real day) and UNKNOWN without a note is nothing.
  static func firstDay(_ marks: [(day: Day, mark: Checkmark, note: String)], today: Day) -> Day? {
    marks.lazy
      .filter { $0.day <= today && $0.mark != .yesAuto && ($0.mark != .unknown || !$0.note.isEmpty) }
      .map(\.day).min()
  }

  static func count(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
  }

  /// Loop's reminder: a time and a bit mask of weekdays (127 = every day). Tally reminds at
  /// one time every day, so a reminder on some weekdays only becomes daily, with a warning.
  static func reminder(hour: Int?, minute: Int?, days: Int, habit: String) -> (Reminder, ImportWarning?) {
    guard let hour, let minute, let time = try? WallTime(hour: hour, minute: minute) else { return (.none, nil) }
    guard days & 0x7F != 0x7F else { return (.single(time), nil) }
    return (
      .single(time),
      ImportWarning(habit: habit, "its reminder at \(time) was on some weekdays only; Tally reminds every day")
    )
  }
}
