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

  /// Loop's "`numerator` times in `denominator` days" as a Tally schedule: 1/1 daily, k/7
  /// weekly k, k/30 and k/31 (Loop's "per month") monthly k, any other k/n "k in n days".
  /// Only a period longer than a year cannot be held: it keeps its rate over 365 days, and the
  /// sentence says so.
  public static func frequency(numerator: Int, denominator: Int) -> (Frequency, change: String?) {
    if numerator == denominator { return (.daily, nil) }
    if denominator == 7, Frequency.weeklyTargets.contains(numerator) {
      return (.weekly(targetPerWeek: numerator), nil)
    }
    if denominator == 30 || denominator == 31, Frequency.monthlyTargets.contains(numerator) {
      return (.monthly(timesPerMonth: numerator), nil)
    }
    if Frequency.blockLengths.contains(denominator) {
      return (.timesInDays(times: numerator, days: denominator), nil)
    }
    let times = min(364, max(1, Int((Double(numerator) * 365 / Double(denominator)).rounded())))
    let frequency = Frequency.timesInDays(times: times, days: 365)
    let was = "\(numerator) \(numerator == 1 ? "time" : "times") in \(denominator) days"
    return (frequency, "its frequency '\(was)' became \(frequency.text) (Tally's periods are at most a year)")
  }

  /// A habit's schedule, measure and description, and warnings for what Tally cannot hold
  /// exactly. A numeric habit's target is per period of its schedule, counted once a period.
  static func habitFields(
    numerator: Int, denominator: Int, target: Target?, description: String, habit: String
  ) -> (frequency: Frequency, measure: Measure?, description: String?, warnings: [ImportWarning]) {
    var warnings: [ImportWarning] = []
    var measure: Measure?
    var (frequency, change) = LoopMapping.frequency(numerator: numerator, denominator: denominator)
    if let target {
      (frequency, change) = LoopMapping.frequency(numerator: 1, denominator: denominator)
      if numerator != 1 {
        warnings.append(
          ImportWarning(
            habit: habit, "its target is counted once per \(denominator) days, not \(numerator) times (\(frequency.text))"))
      }
      var amount = Amount(rounding: min(target.value, Amount.maximum.doubleValue))
      if amount <= .zero {
        amount = Amount(thousandths: 1)
        warnings.append(ImportWarning(habit: habit, "its target \(target.value) became \(amount) (Tally targets are more than 0)"))
      } else if amount.doubleValue != target.value {
        warnings.append(ImportWarning(habit: habit, "its target \(target.value) was rounded to \(amount)"))
      }
      let unit = String(target.unit.trimmingCharacters(in: .whitespacesAndNewlines).prefix(Measure.unitLengths.upperBound))
      if unit != target.unit.trimmingCharacters(in: .whitespacesAndNewlines) {
        warnings.append(ImportWarning(habit: habit, "its unit was shortened to '\(unit)'"))
      }
      measure = try? Measure(unit: unit, target: amount, direction: target.atMost ? .atMost : .atLeast)
    }
    if let change { warnings.append(ImportWarning(habit: habit, change)) }
    let trimmed = description.trimmingCharacters(in: .whitespacesAndNewlines)
    let kept = String(trimmed.prefix(Habit.descriptionLengths.upperBound))
    if kept != trimmed {
      warnings.append(ImportWarning(habit: habit, "its description was cut to \(kept.count) characters"))
    }
    return (frequency, measure, (try? Habit.validDescription(kept)) ?? nil, warnings)
  }

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
    /// A numeric habit's amount (the database stores it × 1000, as Tally's thousandths).
    case amount(Amount)
  }

  /// A database value: boolean habits store the codes, numeric ones the amount × 1000 but
  /// for 3 (skipped) and -1 (unknown), which Loop reads as such there too.
  public static func checkmark(value: Int, numeric: Bool) -> Checkmark? {
    if numeric {
      switch value {
      case -1: return .unknown
      case 3: return .skip
      case 0...Int(Amount.maximum.thousandths): return .amount(Amount(thousandths: Int64(value)))
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
    case "NO": return numeric ? .amount(.zero) : .no
    case "SKIP": return .skip
    case "UNKNOWN": return .unknown
    default:
      guard let value = Int(text) else { return nil }
      return checkmark(value: value, numeric: numeric)
    }
  }

  /// A numeric habit's target as Loop stores it.
  public struct Target: Equatable, Sendable {
    public var value: Double
    /// Loop's "at most" targets (target type 1).
    public var atMost: Bool
    public var unit: String

    public init(value: Double, atMost: Bool, unit: String) {
      self.value = value
      self.atMost = atMost
      self.unit = unit
    }
  }

  /// One habit's checkmarks as Tally entries, with warnings for what Tally cannot hold.
  ///
  /// - YES_MANUAL is done, SKIP skipped; YES_AUTO, NO and UNKNOWN are no entry, or a noted
  ///   day (not done) when they carry a note.
  /// - A numeric habit's recorded amount (0 included) is a done day with that amount.
  /// - Days after `today` are left out, with a warning.
  public static func entries(
    _ marks: [(day: Day, mark: Checkmark, note: String)], habit: String, today: Day
  ) -> (entries: [HabitEntry], warnings: [ImportWarning]) {
    var entries: [HabitEntry] = []
    entries.reserveCapacity(marks.count)
    var future = 0
    for (day, mark, note) in marks.sorted(by: { $0.day < $1.day }) {
      guard day <= today else {
        future += 1
        continue
      }
      let text = note.trimmingCharacters(in: .whitespacesAndNewlines)
      let status: EntryStatus?
      var amount: Amount?
      switch mark {
      case .yesManual: status = .done
      case .skip: status = .skipped
      case .yesAuto, .no, .unknown: status = nil
      case .amount(let recorded):
        status = .done
        amount = recorded
      }
      guard let status = status ?? (text.isEmpty ? nil : .noted) else { continue }
      entries.append(HabitEntry(day: day, status: status, note: text.isEmpty ? nil : text, amount: amount))
    }
    var warnings: [ImportWarning] = []
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
