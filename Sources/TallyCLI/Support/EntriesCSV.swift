import Foundation
import TallyCore
import TallyStore

/// Habit entries as CSV (RFC 4180), for spreadsheets and other trackers: one row per habit and
/// day, `habitId,habitName,day,status,note`.
enum EntriesCSV {
  static let header = ["habitId", "habitName", "day", "status", "note"]

  struct Row: Equatable {
    var habitID: UUID?
    var habitName: String
    var day: Day
    var status: EntryStatus
    var note: String?
  }

  static func text(_ habits: [(habit: Habit, entries: [HabitEntry])]) -> String {
    var lines = [header.joined(separator: ",")]
    for (habit, entries) in habits {
      for entry in entries {
        lines.append(
          [habit.id.storeText, habit.name, entry.day.description, entry.status.rawValue, entry.note ?? ""]
            .map(field).joined(separator: ","))
      }
    }
    return lines.joined(separator: "\r\n") + "\r\n"
  }

  /// Quotes a field when it holds a comma, a quote or a line break.
  static func field(_ text: String) -> String {
    guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
    return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  /// Reads the rows, checking every field; the header must name the columns (in any order;
  /// `habitId` and `note` may be left out).
  static func rows(_ text: String) throws -> [Row] {
    let records = try records(text)
    guard let header = records.first else {
      throw CommandFailure("The CSV file is empty; its first line must be the header \(EntriesCSV.header.joined(separator: ",")).")
    }
    func column(_ name: String) -> Int? { header.firstIndex(of: name) }
    guard let nameColumn = column("habitName"), let dayColumn = column("day"),
      let statusColumn = column("status")
    else {
      throw CommandFailure(
        "The CSV header must name the columns habitName, day and status (habitId and note are optional), not '\(header.joined(separator: ","))'.")
    }
    let idColumn = column("habitId")
    let noteColumn = column("note")
    return try records.dropFirst().enumerated().compactMap { offset, record -> Row? in
      let line = offset + 2
      if record.allSatisfy(\.isEmpty) { return nil }
      func value(_ index: Int?) -> String { index.flatMap { $0 < record.count ? record[$0] : nil } ?? "" }
      guard let day = Day(value(dayColumn)) else {
        throw CommandFailure("Line \(line) of the CSV file has the day '\(value(dayColumn))'; days are written YYYY-MM-DD.")
      }
      guard let status = EntryStatus(rawValue: value(statusColumn)) else {
        throw CommandFailure("Line \(line) of the CSV file has the status '\(value(statusColumn))'; it must be done or skipped.")
      }
      let idText = value(idColumn)
      var id: UUID?
      if !idText.isEmpty {
        guard let parsed = UUID(uuidString: idText) else {
          throw CommandFailure("Line \(line) of the CSV file has the habit id '\(idText)', which is not a UUID.")
        }
        id = parsed
      }
      let name = value(nameColumn)
      guard id != nil || !name.trimmingCharacters(in: .whitespaces).isEmpty else {
        throw CommandFailure("Line \(line) of the CSV file names no habit.")
      }
      let note: String?
      do {
        note = try EntryNote.resolve(value(noteColumn), keeping: nil)
      } catch let error as TallyCore.ValidationError {
        throw CommandFailure("Line \(line) of the CSV file: \(Sentence.rule(error))")
      }
      return Row(habitID: id, habitName: name, day: day, status: status, note: note)
    }
  }

  /// RFC 4180 records: fields split by commas, quoted fields may hold commas, quotes (doubled)
  /// and line breaks; lines end with CRLF or LF.
  static func records(_ text: String) throws -> [[String]] {
    var records: [[String]] = []
    var record: [String] = []
    var field = ""
    var quoted = false
    var wasQuoted = false
    var characters = text.makeIterator()
    var pending: Character? = nil
    func next() -> Character? {
      if let character = pending { pending = nil; return character }
      return characters.next()
    }
    while let character = next() {
      if quoted {
        if character == "\"" {
          let following = next()
          if following == "\"" {
            field.append("\"")
          } else {
            quoted = false
            pending = following
          }
        } else {
          field.append(character)
        }
        continue
      }
      switch character {
      case "\"" where field.isEmpty && !wasQuoted:
        quoted = true
        wasQuoted = true
      case ",":
        record.append(field)
        field = ""
        wasQuoted = false
      case "\n", "\r\n", "\r":
        record.append(field)
        records.append(record)
        record = []
        field = ""
        wasQuoted = false
      default:
        field.append(character)
      }
    }
    if quoted {
      throw CommandFailure("The CSV file ends inside a quoted field.")
    }
    if !field.isEmpty || !record.isEmpty || wasQuoted {
      record.append(field)
      records.append(record)
    }
    return records
  }
}
