import Foundation
import GRDB
import TallyCore
import TallyStore

extension Database {
  /// Inserts days a habit has no entry for yet, many to a statement, stamped for the feed
  /// (`user`, `stamp`, and `first` for the first day's place, the next days' after it) or not.
  ///
  /// A statement writing `habit_entries` runs under a statement journal (v13's triggers could
  /// fail it halfway), which copies each page the statement changes once; a statement a day
  /// would copy a few pages for every day (an import of 155,000 days: a third slower). Their
  /// months are written once each, after (``pausingHabitMonths(touching:_:)``).
  func insertNewDays(_ entries: [HabitEntry], of habit: UUID, stamped: (user: String, stamp: String, first: Int64)? = nil)
    throws
  {
    try pausingHabitMonths(of: habit.storeText, days: entries.lazy.map(\.day)) {
      try insertNewDaysPaused(entries, of: habit, stamped: stamped)
    }
  }

  private func insertNewDaysPaused(_ entries: [HabitEntry], of habit: UUID, stamped: (user: String, stamp: String, first: Int64)?)
    throws
  {
    let columns = stamped == nil ? 5 : 8
    let row = "(" + repeatElement("?", count: columns).joined(separator: ", ") + ")"
    for start in stride(from: 0, to: entries.count, by: Self.newDaysAStatement) {
      let rows = entries[start..<min(start + Self.newDaysAStatement, entries.count)]
      var arguments = StatementArguments()
      for (index, entry) in zip(rows.indices, rows) {
        arguments += EntryRecord(habit: habit, entry: entry).arguments
        if let stamped { arguments += [stamped.user, stamped.stamp, stamped.first + Int64(index)] }
      }
      let sql = "INSERT INTO habit_entries (habit_id, day, status, note, amount"
        + (stamped == nil ? ") VALUES " : ", user_id, stamp, position) VALUES ")
        + repeatElement(row, count: rows.count).joined(separator: ", ")
      // A short last chunk's statement is not kept: its length differs from habit to habit.
      let statement = rows.count == Self.newDaysAStatement ? try cachedStatement(sql: sql) : try makeStatement(sql: sql)
      try statement.execute(arguments: arguments)
    }
  }

  /// Days in one statement: at most 1,600 parameters, well under SQLite's 32,766.
  static let newDaysAStatement = 200
}
