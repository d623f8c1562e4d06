import Foundation
import GRDB
import TallyCore
import TallyStore
import TallySync

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
    var touched = "["
    for month in Set(days.map { $0.description.prefix(7) }) { append([habit, "\(month)-01"], to: &touched) }
    return try pausingHabitMonths(touching: touched + "]", write)
  }

  /// Writes the months `touched` names (as ``pausingHabitMonths(touching:_:)`` takes them) from
  /// their entries: a month with a done or skipped day gets its row, one without has none.
  /// SQLite hands back each month's marked days as `DDs` triples (`05d07s`), in any order, so
  /// a month is one short row rather than a row per day.
  private func rewriteHabitMonths(_ touched: String) throws {
    let rows = try Row.fetchCursor(
      cachedStatement(
        sql: """
          WITH touched AS (
            SELECT DISTINCT r.value ->> 0 AS habit_id, substr(r.value ->> 1, 1, 7) AS month FROM json_each(?) r)
          SELECT t.habit_id, t.month,
            group_concat(substr(e.day, 9, 2) || CASE e.status WHEN 'done' THEN 'd' ELSE 's' END, '')
          FROM touched t JOIN habits h ON h.id = t.habit_id
            LEFT JOIN habit_entries e ON e.habit_id = t.habit_id
              AND e.day BETWEEN t.month || '-01' AND t.month || '-31' AND e.status IN ('done', 'skipped')
          GROUP BY t.habit_id, t.month
          """),
      arguments: [touched])
    var marked = "["
    var empty = "["
    while let row = try rows.next() {
      let habit: String = row[0]
      let month: String = row[1]
      guard let days = row[2] as String? else {
        append([habit, month], to: &empty)
        continue
      }
      append([habit, month, try Self.monthDays(days, habit: habit)], to: &marked)
    }
    if marked.utf8.count > 1 {
      try cachedStatement(
        sql: """
          INSERT INTO habit_months (habit_id, month, days)
          SELECT r.value ->> 0, r.value ->> 1, r.value ->> 2 FROM json_each(?) r WHERE true
          ON CONFLICT (habit_id, month) DO UPDATE SET days = excluded.days
          """
      ).execute(arguments: [marked + "]"])
    }
    if empty.utf8.count > 1 {
      try cachedStatement(
        sql: """
          DELETE FROM habit_months WHERE (habit_id, month) IN (
            SELECT r.value ->> 0, r.value ->> 1 FROM json_each(?) r)
          """
      ).execute(arguments: [empty + "]"])
    }
  }

  /// Adds `texts` as one JSON array to the JSON array being written in `list`.
  private func append(_ texts: [String], to list: inout String) {
    if list.utf8.count > 1 { list += "," }
    list += SyncJSONText.array(texts)
  }

  /// A month's 31 characters from its marked days as `DDs` triples.
  private static func monthDays(_ triples: String, habit: String) throws -> String {
    var days = [UInt8](repeating: UInt8(ascii: "."), count: 31)
    let bytes = Array(triples.utf8)
    guard bytes.count % 3 == 0 else { throw StoreError.corrupt("habit_entries of habit \(habit) has a day of no date") }
    for start in stride(from: 0, to: bytes.count, by: 3) {
      let tens = Int(bytes[start]) - 48
      let ones = Int(bytes[start + 1]) - 48
      let date = tens * 10 + ones
      guard (0...9).contains(tens), (0...9).contains(ones), (1...31).contains(date) else {
        throw StoreError.corrupt("habit_entries of habit \(habit) has a day numbered '\(tens)\(ones)'")
      }
      days[date - 1] = bytes[start + 2]
    }
    return String(decoding: days, as: UTF8.self)
  }
}
