import Foundation
import TallyCore

/// Which kind of file an import reads.
public enum ImportFormat: String, Codable, Sendable, CaseIterable {
  /// Loop Habit Tracker's SQLite backup (`Loop Habits Backup … .db`), every schema since 9.
  case loopSQLite = "loop-sqlite"
  /// Loop Habit Tracker's CSV export (`Loop Habits CSV … .zip`).
  case loopCSV = "loop-csv"
  /// Beaver Habit Tracker's JSON export.
  case beaver
  /// Tally's full export (`tally export`).
  case json
  /// Tally's entry CSV (`tally export --format csv`).
  case csv
  /// Daylio's CSV export (moods, activities, notes).
  case daylio
  /// Day One's JSON export: the zip holding `Journal.json`, or the JSON alone.
  case dayOne = "dayone"
  /// Day One Classic's `.dayone` folder of `.doentry` property lists (or a zip of it).
  case dayOneClassic = "dayone-classic"
  /// HabitBull's CSV export.
  case habitBull = "habitbull"
  /// Rewire's backup database.
  case rewire
  /// Tickmate's backup database.
  case tickmate
  /// Streaks' CSV export.
  case streaks
  /// HabitKit's JSON export.
  case habitKit = "habitkit"
  /// Table Habit's (mhabit) JSON backup.
  case tableHabit = "tablehabit"
  /// Habitica's `userdata.json`.
  case habitica
  /// Habitica's `history.csv`.
  case habiticaHistory = "habitica-csv"

  /// A format by the name people type: its own, or `loop`, short for Loop's backup file.
  public init?(name: String) {
    self.init(rawValue: name == "loop" ? Self.loopSQLite.rawValue : name)
  }

  /// How a summary names the file's kind.
  public var title: String {
    switch self {
    case .loopSQLite: "Loop Habit Tracker backup"
    case .loopCSV: "Loop Habit Tracker CSV export"
    case .beaver: "Beaver Habit Tracker export"
    case .json: "Tally export"
    case .csv: "CSV file"
    case .daylio: "Daylio CSV export"
    case .dayOne: "Day One JSON export"
    case .dayOneClassic: "Day One Classic journal"
    case .habitBull: "HabitBull CSV export"
    case .rewire: "Rewire backup"
    case .tickmate: "Tickmate backup"
    case .streaks: "Streaks CSV export"
    case .habitKit: "HabitKit JSON export"
    case .tableHabit: "Table Habit backup"
    case .habitica: "Habitica user data export"
    case .habiticaHistory: "Habitica history export"
    }
  }
}

/// Habits and journal text read from a file, in Tally's terms but not yet matched against
/// anyone's data: what every reader produces and ``ImportPlanner`` consumes.
public struct ImportedHistory: Hashable, Sendable {
  public var format: ImportFormat
  /// In the order the file lists them (Loop: by position).
  public var habits: [ImportedHabit]
  /// Journal text by day, in the file's order; several on one day are joined by the planner.
  public var journal: [ImportedJournalText]
  /// What could not be carried over exactly, file-wide or per habit.
  public var warnings: [ImportWarning]

  public init(
    format: ImportFormat, habits: [ImportedHabit], journal: [ImportedJournalText] = [], warnings: [ImportWarning] = []
  ) {
    self.format = format
    self.habits = habits
    self.journal = journal
    self.warnings = warnings
  }
}

/// One piece of journal text a file holds for a day (a Day One entry, a Daylio mood line).
public struct ImportedJournalText: Hashable, Sendable {
  public var day: Day
  public var text: String
  /// Where it is in the file, for an error about it ("entry 3 (uuid …)", "line 4").
  public var source: String

  public init(day: Day, text: String, source: String) {
    self.day = day
    self.text = text
    self.source = source
  }
}

/// One habit as a file describes it. Its fields follow Tally's rules already (a reader maps
/// or refuses); only the name is checked later, against the user's habits.
public struct ImportedHabit: Hashable, Sendable {
  public var name: String
  /// `nil`: the file names no habit id (other trackers); Tally's CSV may.
  public var id: UUID?
  public var color: HexColor
  public var frequency: Frequency
  public var reminder: Reminder
  public var archived: Bool
  /// `nil`: the file does not say; the first day of history (or today) is used.
  public var createdDay: Day?
  /// By day, at most one a day.
  public var entries: [HabitEntry]
  /// `nil` for a yes/no habit.
  public var measure: Measure?
  public var description: String?

  public init(
    name: String, id: UUID? = nil, color: HexColor = Habit.defaultColor, frequency: Frequency = .daily,
    reminder: Reminder = .none, archived: Bool = false, createdDay: Day? = nil, entries: [HabitEntry] = [],
    measure: Measure? = nil, description: String? = nil
  ) {
    self.name = name
    self.id = id
    self.color = color
    self.frequency = frequency
    self.reminder = reminder
    self.archived = archived
    self.createdDay = createdDay
    self.entries = entries
    self.measure = measure
    self.description = description
  }
}

/// Something an import changed or left out, said so a person understands it.
public struct ImportWarning: Hashable, Codable, Sendable, CustomStringConvertible {
  /// The habit's name in the file, `nil` for the file as a whole.
  public var habit: String?
  public var message: String

  public init(habit: String?, _ message: String) {
    self.habit = habit
    self.message = message
  }

  public var description: String {
    habit.map { "'\($0)': \(message)" } ?? message
  }
}

/// A file an import refuses: where (a line, a row, a field) and why. Nothing is written.
public struct ImportError: Error, Equatable, Sendable, CustomStringConvertible {
  /// "line 12 of Habits.csv", "row 5 of the table Repetitions", `nil` for the whole file.
  public var location: String?
  public var reason: String

  public init(_ location: String?, _ reason: String) {
    self.location = location
    self.reason = reason
  }

  /// A sentence without its full stop: "Line 3 of Habits.csv: the Color 'blue' is not …".
  public var description: String {
    let text = location.map { "\($0): \(reason)" } ?? reason
    return text.prefix(1).uppercased() + text.dropFirst()
  }
}

/// How far a long import has come, for a progress line on a terminal.
public struct ImportProgress: Sendable, Equatable {
  public var stage: String
  public var done: Int
  public var total: Int

  public init(stage: String, done: Int, total: Int) {
    self.stage = stage
    self.done = done
    self.total = total
  }
}

public typealias ProgressHandler = @Sendable (ImportProgress) -> Void
