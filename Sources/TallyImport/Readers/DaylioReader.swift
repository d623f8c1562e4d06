import Foundation
import TallyCore

/// Reads Daylio's CSV export (`full_date,date,weekday,time,mood,activities,note_title,note`,
/// newest first; older versions have no `note_title`). Each activity becomes a yes/no habit
/// done on the days an entry names it; each entry's time, mood, title and note become a
/// piece of journal text on its day, so several entries a day are all kept, in time order.
public enum DaylioReader {
  static let header = ["full_date", "date", "weekday", "time", "mood", "activities", "note_title", "note"]
  static let required = ["full_date", "time", "mood", "activities"]
  static let file = "the Daylio CSV"

  public static func read(_ data: Data, today: Day) throws(ImportError) -> ImportedHistory {
    let records = try CSVReader.records(data, file: file)
    let header = try CSVHeader(records, file: file, required: required, app: "Daylio")
    var entries: [(day: Day, time: String, line: Int, text: String, activities: [String])] = []
    for record in records.dropFirst() where record.fields != [""] {
      let location = "line \(record.line) of \(file)"
      let day = try ImportDates.day(header.field("full_date", record), location, field: "full_date")
      let time = clock(header.field("time", record))
      let mood = header.field("mood", record).trimmingCharacters(in: .whitespaces)
      var text = mood.isEmpty ? time : "\(time) \(mood)"
      for part in [header.field("note_title", record), plain(header.field("note", record))] {
        let trimmed = part.trimmingCharacters(in: .whitespacesAndNewlines)
        if !trimmed.isEmpty { text += "\n" + trimmed }
      }
      let activities = header.field("activities", record).split(separator: "|")
        .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
      entries.append((day, time, record.line, text, activities))
    }
    // The file lists the newest first; habits and text go in the order they happened.
    entries.sort { ($0.day, $0.time, -$0.line) < ($1.day, $1.time, -$1.line) }
    var builder = HabitBuilder(today: today)
    var journal: [ImportedJournalText] = []
    var future = 0
    for entry in entries {
      guard entry.day <= today else {
        future += 1
        continue
      }
      journal.append(ImportedJournalText(day: entry.day, text: entry.text, source: "line \(entry.line) of \(file)"))
      for activity in entry.activities {
        let habit = builder.habit(activity) { ImportedHabit(name: activity) }
        // Two entries of one day naming one activity: one done day.
        if !builder.hasDay(entry.day, habit: habit) { builder.add(HabitEntry(day: entry.day, status: .done), to: habit) }
      }
    }
    var (habits, warnings) = builder.build()
    if future > 0 {
      warnings.append(ImportWarning(habit: nil, "\(LoopMapping.count(future, "entry")) after today (\(today)) left out"))
    }
    return ImportedHistory(format: .daylio, habits: habits, journal: journal, warnings: warnings)
  }

  /// "10:00 pm" as "22:00"; a time written otherwise is kept as it is.
  static func clock(_ text: String) -> String {
    let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
    let parts = trimmed.split(whereSeparator: { $0 == ":" || $0 == " " })
    guard parts.count >= 2, var hour = Int(parts[0]), let minute = Int(parts[1]), (0..<60).contains(minute) else {
      return text.trimmingCharacters(in: .whitespaces)
    }
    if parts.count == 3 {
      guard (1...12).contains(hour), parts[2] == "am" || parts[2] == "pm" else { return trimmed }
      hour = hour % 12 + (parts[2] == "pm" ? 12 : 0)
    }
    guard (0..<24).contains(hour) else { return trimmed }
    return String(format: "%02d:%02d", hour, minute)
  }

  /// Daylio writes a note's line breaks as `<br>`.
  static func plain(_ note: String) -> String {
    note.replacingOccurrences(of: "<br>", with: "\n").replacingOccurrences(of: "<br/>", with: "\n")
      .replacingOccurrences(of: "<br />", with: "\n")
  }
}
