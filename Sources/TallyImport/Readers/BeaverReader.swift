import Foundation
import TallyCore

/// Reads Beaver Habit Tracker's JSON export: `habits[]`, each with `name`, `records[{day,
/// done, text}]` and optionally `id`, `status` (`normal`, `archive`, `soft_delete`),
/// `weekly_goal` (older files) or `period` (`{period_type, period_count, target_count}`: k
/// times per n days, weeks, months or years); an `order` list of habit ids orders them.
public enum BeaverReader {
  struct Export: Decodable {
    var habits: [Habit]
    var order: [String]?
  }

  struct Habit: Decodable {
    var id: String?
    var name: String
    var records: [Record]?
    var status: String?
    var weekly_goal: Int?
    var period: Period?
  }

  struct Period: Decodable {
    var period_type: String
    var period_count: Int
    var target_count: Int
  }

  struct Record: Decodable {
    var day: String
    var done: Bool?
    var text: String?
    /// Other fields a record holds (a newer Beaver's amounts, perhaps): Tally does not read
    /// them, and the import says so rather than dropping them unseen.
    var unread: [String]

    private struct Key: CodingKey {
      var stringValue: String
      var intValue: Int? { nil }
      init(stringValue: String) { self.stringValue = stringValue }
      init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: Key.self)
      day = try container.decode(String.self, forKey: Key(stringValue: "day"))
      done = try container.decodeIfPresent(Bool.self, forKey: Key(stringValue: "done"))
      text = try container.decodeIfPresent(String.self, forKey: Key(stringValue: "text"))
      unread = container.allKeys.map(\.stringValue).filter { !["day", "done", "text"].contains($0) }
    }
  }

  public static func read(_ data: Data, today: Day) throws(ImportError) -> ImportedHistory {
    guard (try? JSONSerialization.jsonObject(with: data)) != nil else {
      throw ImportError(nil, "the file is not a Beaver Habit Tracker export: it is not JSON")
    }
    let export: Export
    do {
      export = try JSONDecoder().decode(Export.self, from: data)
    } catch let error as DecodingError {
      throw ImportError(nil, "the file is not a Beaver Habit Tracker export: \(DecodingErrorText.describe(error))")
    } catch {
      throw ImportError(nil, "the file is not a Beaver Habit Tracker export: it is not JSON")
    }
    var habits: [(order: Int, habit: ImportedHabit)] = []
    var warnings: [ImportWarning] = []
    let order = Dictionary((export.order ?? []).enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    for (index, habit) in export.habits.enumerated() {
      let location = "the habit '\(habit.name)' (habits[\(index)])"
      let archived: Bool
      switch habit.status ?? "normal" {
      case "normal", "active": archived = false
      case "archive", "archived": archived = true
      case "soft_delete", "solf_delete", "deleted":
        warnings.append(ImportWarning(habit: habit.name, "it was deleted in Beaver, so it is left out"))
        continue
      case let other:
        throw ImportError(location, "the status '\(other)' is not one Beaver writes (normal, archive, soft_delete)")
      }
      let frequency: Frequency
      if let period = habit.period {
        let (mapped, change) = try Self.frequency(period, location: location)
        frequency = mapped
        if let change { warnings.append(ImportWarning(habit: habit.name, change)) }
      } else {
        switch habit.weekly_goal ?? 0 {
        case 0, 7...: frequency = .daily
        case let goal where goal > 0: frequency = .weekly(targetPerWeek: goal)
        case let goal: throw ImportError(location, "the weekly_goal \(goal) is negative")
        }
      }
      var seen: Set<Day> = []
      var entries: [HabitEntry] = []
      var future = 0
      var unread: [String: Int] = [:]
      for (recordIndex, record) in (habit.records ?? []).enumerated() {
        for field in record.unread { unread[field, default: 0] += 1 }
        let recordLocation = "record \(recordIndex + 1) of the habit '\(habit.name)' (habits[\(index)].records[\(recordIndex)])"
        guard let day = Day(record.day) else {
          throw ImportError(recordLocation, "the day '\(record.day)' is not written YYYY-MM-DD")
        }
        guard seen.insert(day).inserted else {
          throw ImportError(recordLocation, "the day \(day) is listed twice")
        }
        let note = record.text?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard day <= today else {
          future += 1
          continue
        }
        // A day not done keeps its note as a noted day; without one it is no entry.
        guard let status: EntryStatus = record.done == true ? .done : note.isEmpty ? nil : .noted else { continue }
        entries.append(HabitEntry(day: day, status: status, note: note.isEmpty ? nil : note))
      }
      for (field, count) in unread.sorted(by: { $0.key < $1.key }) {
        warnings.append(
          ImportWarning(
            habit: habit.name,
            "the field '\(field)' of \(LoopMapping.count(count, "record")) is not one Tally reads, so its values are not imported"))
      }
      if future > 0 {
        warnings.append(ImportWarning(habit: habit.name, "\(LoopMapping.count(future, "day")) after today (\(today)) left out"))
      }
      entries.sort { $0.day < $1.day }
      let position = habit.id.flatMap { order[$0] } ?? order.count + index
      habits.append(
        (position,
          ImportedHabit(
            name: habit.name, frequency: frequency, archived: archived,
            createdDay: seen.filter { $0 <= today }.min(), entries: entries)))
    }
    return ImportedHistory(
      format: .beaver, habits: habits.sorted { $0.order < $1.order }.map(\.habit), warnings: warnings)
  }

  /// Beaver's `period` as a Tally schedule. One calendar week or month is Tally's weekly or
  /// monthly schedule; days are "k in n days"; longer spans of weeks, months or years become
  /// blocks of days (Tally counts calendar weeks and months one at a time), and the sentence
  /// says so.
  static func frequency(_ period: Period, location: String) throws(ImportError) -> (Frequency, change: String?) {
    let (times, count, type) = (period.target_count, period.period_count, period.period_type)
    guard times >= 1, count >= 1 else {
      throw ImportError(location, "the period \(times)/\(count)\(type) needs counts of 1 or more")
    }
    let days: Int
    switch (type, count) {
    case ("W", 1): return times >= 7 ? (.daily, nil) : (.weekly(targetPerWeek: times), nil)
    case ("M", 1) where Frequency.monthlyTargets.contains(times): return (.monthly(timesPerMonth: times), nil)
    case ("D", _): return LoopMapping.frequency(numerator: min(times, count), denominator: count)
    case ("W", _): days = 7 * count
    case ("M", _): days = 30 * count
    case ("Y", _): days = 365 * count
    default:
      throw ImportError(location, "the period type '\(type)' is not one Beaver writes (D, W, M or Y)")
    }
    let (frequency, _) = LoopMapping.frequency(numerator: min(times, days), denominator: days)
    guard frequency != .daily else { return (.daily, nil) }
    return (frequency, "its period \(times)/\(count)\(type) became \(frequency.text), counted in blocks of days rather than calendar \(type == "W" ? "weeks" : type == "M" ? "months" : "years")")
  }
}
