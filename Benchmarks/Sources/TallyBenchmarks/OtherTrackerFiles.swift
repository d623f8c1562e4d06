import Foundation
import TallyCore
import TallyImport

/// Synthetic files of the other trackers an import reads as text (Streaks, HabitBull and
/// Habitica history CSV, HabitKit, Table Habit and Habitica JSON), each 50 habits × 10 years done on two days in
/// three, so every reader is timed on the same history as Loop's big backup.
enum OtherTrackerFiles {
  static let habits = 50
  static let days = 3650

  /// The days of the ten years up to `today`, and whether habit `habit` is done on day `index`.
  static func done(_ habit: Int, _ index: Int) -> Bool { (habit + index) % 3 != 0 }

  static func file(_ format: ImportFormat, today: Day) -> Data {
    let first = today.adding(days: -(days - 1))
    var text = ""
    switch format {
    case .streaks:
      text = "task_id,title,entry_type,entry_date\n"
      for habit in 0..<habits {
        for index in 0..<days where done(habit, index) {
          text += "t\(habit),\"Habit \(habit)\",completed_manually,\(compact(first.adding(days: index)))\n"
        }
      }
    case .habitBull:
      text = "HabitName,HabitDescription,HabitCategory,CalendarDate,Value,CommentText\n"
      for habit in 0..<habits {
        for index in 0..<days where done(habit, index) {
          text += "Habit \(habit),,,\(first.adding(days: index)),1,\n"
        }
      }
    case .habitKit:
      let list = (0..<habits).map { #"{"id":"h\#($0)","name":"Habit \#($0)","orderIndex":\#($0)}"# }
      var completions: [String] = []
      for habit in 0..<habits {
        for index in 0..<days where done(habit, index) {
          completions.append(
            #"{"habitId":"h\#(habit)","date":"\#(first.adding(days: index))T00:00:00.000Z","timezoneOffsetInMinutes":0,"amountOfCompletions":1}"#)
        }
      }
      let intervals = (0..<habits).map { #"{"habitId":"h\#($0)","requiredNumberOfCompletionsPerDay":1}"# }
      text = #"{"habits":[\#(list.joined(separator: ","))],"completions":[\#(completions.joined(separator: ","))],"intervals":[\#(intervals.joined(separator: ","))]}"#
    case .tableHabit:
      let list = (0..<habits).map { habit in
        let records = (0..<days).filter { done(habit, $0) }.map {
          #"{"record_date":\#(first.adding(days: $0).ordinal),"record_type":1,"record_value":1}"#
        }
        return #"{"name":"Habit \#(habit)","status":1,"type":1,"daily_goal":1,"freq_type":3,"freq_custom":"[1, 1]","records":[\#(records.joined(separator: ","))]}"#
      }
      text = "[\(list.joined(separator: ","))]"
    case .habiticaHistory:
      // A daily's score rises by 1 on a day done and falls by a half on a day missed.
      text = "Task Name,Task ID,Task Type,Date,Value\n"
      for habit in 0..<habits {
        var value = 0.0
        for index in 0..<days {
          value += done(habit, index) ? 1 : -0.5
          text += "Habit \(habit),d\(habit),daily,\(first.adding(days: index)) 12:00:00,\(value)\n"
        }
      }
    default:
      let list = (0..<habits).map { habit in
        let history = (0..<days).map { index in
          #"{"date":\#((first.adding(days: index).ordinal * 86_400 + 43_200) * 1000),"value":1,"isDue":true,"completed":\#(done(habit, index))}"#
        }
        return #"{"id":"d\#(habit)","text":"Habit \#(habit)","frequency":"daily","everyX":1,"history":[\#(history.joined(separator: ","))]}"#
      }
      text = #"{"preferences":{"timezoneOffset":0,"dayStart":0},"tasks":{"dailys":[\#(list.joined(separator: ","))],"todos":[]}}"#
    }
    return Data(text.utf8)
  }

  static func compact(_ day: Day) -> String { day.description.replacingOccurrences(of: "-", with: "") }

  /// Detecting and reading each file, then planning it against an empty user.
  static func run(today: Day) async throws {
    print("\nOther trackers' files, \(habits) habits × \(days) days (done 2 days in 3), read and planned")
    for format in [ImportFormat.streaks, .habitBull, .habitKit, .tableHabit, .habitica, .habiticaHistory] {
      let data = file(format, today: today)
      let detected = try Importer.detect(path: "synthetic", data: data)
      guard detected == format else {
        throw BenchmarkFailure(description: "The synthetic \(format.title) was told as \(detected.title).")
      }
      let history = try Importer.read(format, path: "synthetic", data: data, today: today)
      let entries = history.habits.reduce(0) { $0 + $1.entries.count }
      let read = try await ImportBenchmark.best { _ in _ = try Importer.read(format, path: "synthetic", data: data, today: today) }
      let plan = try await ImportBenchmark.best { _ in
        _ = try ImportPlanner.plan(history, existing: [], entries: [:], today: today, dryRun: true)
      }
      ImportBenchmark.row(
        "\(format.title), \(data.count / 1_048_576) MiB, \(entries) entries: read", read,
        "then plan \(String(format: "%.3f s", plan))")
    }
  }
}
