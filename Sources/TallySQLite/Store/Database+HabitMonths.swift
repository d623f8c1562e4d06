import Foundation
import GRDB
import TallyCore
import TallyStore

extension Database {
  /// Runs `write`, which writes `habit_entries` rows of the months `touched` names, with the
  /// month triggers paused (v14), then writes each of those months once from its entries.
  /// `touched` is a JSON array of arrays whose first two items are a habit id and a day of the
  /// month (`YYYY-MM-DD`); more items are ignored, so a batch's own rows can name their months.
  ///
  /// For writes of many days: the triggers rewrite a month's row for every day written, about
  /// 4 µs a day, and a first pull writes 150,000. The pause belongs to this transaction alone
  /// and cannot be committed (v14's deferred key): every other write still runs the triggers.
  func pausingHabitMonths<T>(touching touched: String, _ write: () throws -> T) throws -> T {
    try cachedStatement(sql: "INSERT INTO habit_months_pause (id, resume_before_commit) VALUES (1, 2)").execute()
    let result = try write()
    try cachedStatement(sql: "DELETE FROM habit_months_pause").execute()
    try rewriteHabitMonths(touched)
    return result
  }

  /// ``pausingHabitMonths(touching:_:)`` for `days` of one habit.
  func pausingHabitMonths<T>(of habit: String, days: some Sequence<Day>, _ write: () throws -> T) throws -> T {
    let months = Set(days.map { $0.description.prefix(7) }).map { "[\"\(habit)\",\"\($0)-01\"]" }
    return try pausingHabitMonths(touching: "[" + months.joined(separator: ",") + "]", write)
  }

  /// Writes the months `touched` names (as ``pausingHabitMonths(touching:_:)`` takes them) from
  /// their entries: a month with a done or skipped day gets its row, one without has none.
  private func rewriteHabitMonths(_ touched: String) throws {
    let rows = try Row.fetchCursor(
      cachedStatement(
        sql: """
          WITH touched AS (
            SELECT DISTINCT r.value ->> 0 AS habit_id, substr(r.value ->> 1, 1, 7) AS month FROM json_each(?) r)
          SELECT t.habit_id, t.month, e.day, e.status
          FROM touched t JOIN habits h ON h.id = t.habit_id
            LEFT JOIN habit_entries e ON e.habit_id = t.habit_id
              AND e.day BETWEEN t.month || '-01' AND t.month || '-31' AND e.status IN ('done', 'skipped')
          """),
      arguments: [touched])
    var months: [MonthKey: [UInt8]] = [:]
    var empty: [MonthKey] = []
    while let row = try rows.next() {
      let key = MonthKey(habit: row[0], month: row[1])
      guard let day = row[2] as String?, let status = row[3] as String? else {
        empty.append(key)
        continue
      }
      guard let date = Int(day.suffix(2)), (1...31).contains(date) else {
        throw StoreError.corrupt("habit_entries of habit \(key.habit) has day '\(day)'")
      }
      months[key, default: Array(repeating: UInt8(ascii: "."), count: 31)][date - 1] =
        status == "done" ? UInt8(ascii: "d") : UInt8(ascii: "s")
    }
    if !months.isEmpty {
      let json = try JSONEncoder().encode(months.map { [$0.key.habit, $0.key.month, String(decoding: $0.value, as: UTF8.self)] })
      try cachedStatement(
        sql: """
          INSERT INTO habit_months (habit_id, month, days)
          SELECT r.value ->> 0, r.value ->> 1, r.value ->> 2 FROM json_each(?) r WHERE true
          ON CONFLICT (habit_id, month) DO UPDATE SET days = excluded.days
          """
      ).execute(arguments: [String(decoding: json, as: UTF8.self)])
    }
    if !empty.isEmpty {
      let json = try JSONEncoder().encode(empty.map { [$0.habit, $0.month] })
      try cachedStatement(
        sql: """
          DELETE FROM habit_months WHERE (habit_id, month) IN (
            SELECT r.value ->> 0, r.value ->> 1 FROM json_each(?) r)
          """
      ).execute(arguments: [String(decoding: json, as: UTF8.self)])
    }
  }

  private struct MonthKey: Hashable {
    let habit: String
    let month: String
  }
}
