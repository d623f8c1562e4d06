import Foundation
import TallyCore
import TallyStore

/// Tally's habit entries as CSV (RFC 4180, UTF-8, CRLF), for spreadsheets and other trackers:
/// one row per habit and day, `habitId,habitName,day,status,note,amount`, days as YYYY-MM-DD,
/// amounts (measurable habits' done days) as decimals with a dot.
public enum EntriesCSV {
  public static let header = ["habitId", "habitName", "day", "status", "note", "amount"]
  static let file = "the CSV file"

  public static func text(_ habits: [(habit: Habit, entries: [HabitEntry])]) -> String {
    var lines = [header.joined(separator: ",")]
    for (habit, entries) in habits {
      for entry in entries {
        lines.append(
          [
            habit.id.storeText, habit.name, entry.day.description, entry.status.rawValue, entry.note ?? "",
            entry.amount?.description ?? "",
          ]
            .map(CSVReader.field).joined(separator: ","))
      }
    }
    return lines.joined(separator: "\r\n") + "\r\n"
  }

  /// The file's rows as habits: grouped by id when a row has one, else by exact name, in the
  /// order they first appear. The header names the columns in any order; `habitId`, `note`
  /// and `amount` may be left out. A day after `today` is refused, like a mark. A habit new to
  /// the account whose rows carry amounts becomes measurable with a target of 1, and a
  /// warning says so (the file holds no target).
  public static func read(_ data: Data, today: Day) throws(ImportError) -> ImportedHistory {
    let records = try CSVReader.records(data, file: file)
    guard let header = records.first?.fields else {
      throw ImportError(nil, "the CSV file is empty; its first line must be the header \(EntriesCSV.header.joined(separator: ","))")
    }
    func column(_ name: String) -> Int? { header.firstIndex(of: name) }
    guard let nameColumn = column("habitName"), let dayColumn = column("day"), let statusColumn = column("status")
    else {
      throw ImportError(
        "line 1 of the CSV file",
        "the header must name the columns habitName, day and status (habitId and note are optional), not '\(header.joined(separator: ","))'")
    }
    let idColumn = column("habitId")
    let noteColumn = column("note")
    let amountColumn = column("amount")
    var habits: [ImportedHabit] = []
    var indexByKey: [String: Int] = [:]
    var days: [Set<Day>] = []
    for record in records.dropFirst() where !record.fields.allSatisfy(\.isEmpty) {
      let location = "line \(record.line) of the CSV file"
      func value(_ index: Int?) -> String {
        index.flatMap { $0 < record.fields.count ? record.fields[$0] : nil } ?? ""
      }
      guard let day = Day(value(dayColumn)) else {
        throw ImportError(location, "the day '\(value(dayColumn))' is not written YYYY-MM-DD")
      }
      guard day <= today else {
        throw ImportError(location, "the day \(day) is after today (\(today)); only days up to today can be marked")
      }
      guard let status = EntryStatus(rawValue: value(statusColumn)) else {
        throw ImportError(location, "the status '\(value(statusColumn))' is not done, skipped or noted")
      }
      var id: UUID?
      if !value(idColumn).isEmpty {
        guard let parsed = UUID(uuidString: value(idColumn)) else {
          throw ImportError(location, "the habit id '\(value(idColumn))' is not a UUID")
        }
        id = parsed
      }
      let name = value(nameColumn).trimmingCharacters(in: .whitespacesAndNewlines)
      guard id != nil || !name.isEmpty else { throw ImportError(location, "it names no habit") }
      let note: String?
      do {
        note = try EntryNote.resolve(value(noteColumn), keeping: nil)
      } catch {
        throw ImportError(location, "the \(error.field) \(error.rule)")
      }
      guard status != .noted || note != nil else {
        throw ImportError(location, "the note must not be empty on a noted day (the note is all it holds)")
      }
      var amount: Amount?
      if !value(amountColumn).isEmpty {
        do {
          amount = try Amount(parsing: value(amountColumn))
        } catch {
          throw ImportError(location, "the \(error.field) \(error.rule)")
        }
      }
      let key = id.map { "id \($0.storeText)" } ?? "name \(name)"
      let index: Int
      if let known = indexByKey[key] {
        index = known
      } else {
        index = habits.count
        indexByKey[key] = index
        habits.append(ImportedHabit(name: name.isEmpty ? id!.storeText : name, id: id))
        days.append([])
      }
      guard days[index].insert(day).inserted else {
        throw ImportError(location, "the day \(day) of '\(habits[index].name)' is listed twice")
      }
      habits[index].entries.append(HabitEntry(day: day, status: status, note: note, amount: amount))
    }
    var warnings: [ImportWarning] = []
    for index in habits.indices {
      habits[index].entries.sort { $0.day < $1.day }
      habits[index].createdDay = habits[index].entries.first?.day
      if habits[index].entries.contains(where: { $0.amount != nil }) {
        habits[index].measure = try? Measure(unit: "", target: Amount(1))
        warnings.append(
          ImportWarning(
            habit: habits[index].name,
            "has amounts: if it is new here it becomes measurable with a target of 1 and no unit (the file holds neither)"))
      }
    }
    return ImportedHistory(format: .csv, habits: habits, warnings: warnings)
  }
}
