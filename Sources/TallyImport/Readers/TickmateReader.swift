import Foundation
import GRDB
import TallyCore

/// Reads Tickmate's backup database: `tracks` (name, description) and `ticks` (`year`,
/// `month` counted from 0 as Java's Calendar does, `day`). A track is a daily habit done on
/// each day it has a tick. A track that allows several ticks a day
/// (`multiple_entries_per_day`) becomes a measurable habit of ticks, at least 1 a day, each
/// day's amount its number of ticks, so no tick is lost.
public enum TickmateReader {
  static let app = "Tickmate"

  public static func read(path: String, today: Day) throws(ImportError) -> ImportedHistory {
    try SQLiteFile.read(path: path, app: app) { db in try read(db, today: today) }
  }

  static func read(_ db: Database, today: Day) throws -> ImportedHistory {
    let trackColumns = try SQLiteFile.require(["_id", "name"], in: "tracks", of: db, app: app)
    _ = try SQLiteFile.require(["_track_id", "year", "month", "day"], in: "ticks", of: db, app: app)
    func column(_ name: String, _ fallback: String) -> String {
      trackColumns.contains(name.lowercased()) ? "\"\(name)\"" : "\(fallback) AS \"\(name)\""
    }
    let order = trackColumns.contains("order") ? "\"order\", _id" : "_id"
    var builder = HabitBuilder(today: today)
    var tracks: [Int64: (habit: Int, counted: Bool)] = [:]
    let rows = try Row.fetchCursor(
      db,
      sql: "SELECT _id, name, \(column("description", "''")), \(column("multiple_entries_per_day", "0")), \(column("enabled", "1")) FROM tracks ORDER BY \(order)")
    while let row = try rows.next() {
      let id: Int64 = row["_id"]
      guard let name = row.value("name") as String?, !name.trimmingCharacters(in: .whitespaces).isEmpty else {
        throw ImportError("the track with _id \(id) in the table tracks", "it has no name")
      }
      let counted = (row.value("multiple_entries_per_day") as Int? ?? 0) != 0
      let habit = builder.habit("\(id)") {
        ImportedHabit(
          name: name, archived: (row.value("enabled") as Int? ?? 1) == 0,
          measure: counted ? try? Measure(unit: "ticks", target: Amount(1)) : nil,
          description: (row.value("description") as String?).flatMap(HabitBullReader.descriptionText))
      }
      tracks[id] = (habit, counted)
    }
    var ticks: [Int64: [Day: Int]] = [:]
    let rowsOfTicks = try Row.fetchCursor(db, sql: "SELECT rowid, _track_id, year, month, day FROM ticks ORDER BY rowid")
    while let row = try rowsOfTicks.next() {
      let location = "the tick with id \(row[0] as Int64) in the table ticks"
      guard let track = row.value("_track_id") as Int64?, tracks[track] != nil else {
        throw ImportError(location, "its track \(describe(row["_track_id"])) is not in the table tracks")
      }
      guard let year = row.value("year") as Int?, let month = row.value("month") as Int?, let dayNumber = row.value("day") as Int?,
        (0...11).contains(month), let day = Day(year: year, month: month + 1, day: dayNumber)
      else {
        throw ImportError(
          location,
          "its date \(describe(row["year"]))-\(describe(row["month"]))-\(describe(row["day"])) is not a day (Tickmate counts months from 0)")
      }
      ticks[track, default: [:]][try ImportDates.checked(day, location), default: 0] += 1
    }
    var extra = 0
    for (track, days) in ticks {
      guard let (habit, counted) = tracks[track] else { continue }
      for (day, count) in days {
        if !counted { extra += count - 1 }
        builder.add(HabitEntry(day: day, status: .done, amount: counted ? Amount(count) : nil), to: habit)
      }
    }
    var (habits, warnings) = builder.build()
    if extra > 0 {
      warnings.append(
        ImportWarning(habit: nil, "\(LoopMapping.count(extra, "tick")) on a day already ticked, in tracks of one tick a day, counted once"))
    }
    let tickColumns = try SQLiteFile.columns(db, table: "ticks", app: app)
    if tickColumns.contains("has_time_info"),
      let timed = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ticks WHERE has_time_info = 1"), timed > 0
    {
      warnings.append(ImportWarning(habit: nil, "the times of \(LoopMapping.count(timed, "tick")) are not carried (Tally keeps days)"))
    }
    if try db.tableExists("track2groups"),
      let grouped = try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT _track_id) FROM track2groups"), grouped > 0
    {
      warnings.append(ImportWarning(habit: nil, "the groups of \(LoopMapping.count(grouped, "track")) are not carried (Tally has none)"))
    }
    return ImportedHistory(format: .tickmate, habits: habits, warnings: warnings)
  }
}
