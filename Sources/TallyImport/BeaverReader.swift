import Foundation
import TallyCore

/// Reads Beaver Habit Tracker's JSON export: `habits[]`, each with `name`, `records[{day,
/// done, text}]` and optionally `id`, `status` (`normal`, `archive`, `soft_delete`) and
/// `weekly_goal`; an `order` list of habit ids, when present, gives the order.
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
  }

  struct Record: Decodable {
    var day: String
    var done: Bool?
    var text: String?
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
      switch habit.weekly_goal ?? 0 {
      case 0, 7...: frequency = .daily
      case let goal where goal > 0: frequency = .weekly(targetPerWeek: goal)
      case let goal: throw ImportError(location, "the weekly_goal \(goal) is negative")
      }
      var seen: Set<Day> = []
      var entries: [HabitEntry] = []
      var future = 0
      for (recordIndex, record) in (habit.records ?? []).enumerated() {
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
}
