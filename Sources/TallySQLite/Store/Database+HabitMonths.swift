import Foundation
import GRDB
import TallyCore
import TallyStore
import TallySync

extension Database {
  /// Runs `write`, which writes `habit_entries` rows of the days `touched` spans, with the
  /// month triggers paused (v14), then writes the months of each habit's span once from its
  /// entries.
  ///
  /// For writes of many days: the triggers rewrite a month's row for every day written, about
  /// 4 µs a day, and a first pull writes 150,000. The pause belongs to this transaction alone
  /// and cannot be committed (v14's deferred key): every other write still runs the triggers.
  func pausingHabitMonths<T>(touching touched: HabitDaySpans, _ write: () throws -> T) throws -> T {
    try cachedStatement(sql: "INSERT INTO habit_months_pause (id, resume_before_commit) VALUES (1, 2)").execute()
    let result = try write()
    try cachedStatement(sql: "DELETE FROM habit_months_pause").execute()
    for (habit, span) in touched.spans {
      try rewriteHabitMonths(habit, from: String(span.lowerBound.prefix(7)), to: String(span.upperBound.prefix(7)))
    }
    return result
  }

  /// ``pausingHabitMonths(touching:_:)`` for `days` of one habit.
  func pausingHabitMonths<T>(of habit: String, days: some Sequence<Day>, _ write: () throws -> T) throws -> T {
    var touched = HabitDaySpans()
    for day in days { touched.add(habit: habit, day: day.description) }
    return try pausingHabitMonths(touching: touched, write)
  }

  /// Writes `habit`'s months `first` to `last` (`YYYY-MM`) from its entries: a month with a
  /// done or skipped day gets its row, one without has none. One range of the entries' key is
  /// read, SQLite handing back each month's marked days as `DDs` triples (`05d07s`).
  private func rewriteHabitMonths(_ habit: String, from first: String, to last: String) throws {
    let months = try Row.fetchCursor(
      cachedStatement(
        sql: """
          SELECT substr(day, 1, 7), group_concat(substr(day, 9, 2) || CASE status WHEN 'done' THEN 'd' ELSE 's' END, '')
          FROM habit_entries
          WHERE habit_id = ?1 AND day BETWEEN ?2 || '-01' AND ?3 || '-31' AND status IN ('done', 'skipped')
          GROUP BY 1
          """),
      arguments: [habit, first, last])
    var rows = "["
    while let row = try months.next() {
      if rows.utf8.count > 1 { rows += "," }
      rows += SyncJSONText.array([row[0], try Self.monthDays(row[1], habit: habit)])
    }
    try cachedStatement(sql: "DELETE FROM habit_months WHERE habit_id = ? AND month BETWEEN ? AND ?")
      .execute(arguments: [habit, first, last])
    guard rows.utf8.count > 1 else { return }
    // A habit this write did not leave (one the user has not, or has just deleted) keeps none.
    try cachedStatement(
      sql: """
        INSERT INTO habit_months (habit_id, month, days)
        SELECT h.id, r.value ->> 0, r.value ->> 1 FROM json_each(?2) r JOIN habits h ON h.id = ?1
        """
    ).execute(arguments: [habit, rows + "]"])
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
