import Foundation
import GRDB
import TallyCore
import TallyStore

// MARK: - Histories

extension SQLiteStore {
  /// Yes/no habits from their months (`habit_months`, which triggers keep in step with the
  /// entries), a row per month instead of a row per day; measurable habits from their entries,
  /// since the months keep no amounts.
  public func histories(for user: UUID) async throws -> [UUID: HabitHistory] {
    try await readAside { db in try Self.histories(db, user: user) }
  }

  static func histories(_ db: Database, user: UUID) throws -> [UUID: HabitHistory] {
    try db.requireUser(user)
    let months = try db.cachedStatement(sql: "SELECT month, days FROM habit_months WHERE habit_id = ? ORDER BY month")
    var result: [UUID: HabitHistory] = [:]
    var ids: [UUID] = []
    let habits = try Row.fetchAll(db, sql: "SELECT id, measurable FROM habits WHERE user_id = ?", arguments: [user.storeText])
    for habit in habits {
      let text: String = habit[0]
      let id = try Stored.uuid(text, "habits.id")
      ids.append(id)
      let history: HabitHistory
      if habit[1] as Bool {
        history = HabitHistory(try entries(db, habit: text, in: nil))
      } else {
        history = try monthsHistory(Row.fetchCursor(months, arguments: [text]), habit: text)
      }
      if history.firstDay != nil { result[id] = history }
    }
    return result.pausing(try db.pauses(of: user), habits: ids)
  }

  /// Lays a habit's months, in order, end to end from the first one's first day.
  private static func monthsHistory(_ rows: RowCursor, habit: String) throws -> HabitHistory {
    var first: Day?
    var statuses: [EntryStatus?] = []
    while let row = try rows.next() {
      let monthText: String = row[0]
      let days: String = row[1]
      guard let start = Day(monthText + "-01"), days.utf8.count == 31 else {
        throw StoreError.corrupt("habit_months of habit \(habit) has month '\(monthText)' with days '\(days)'")
      }
      let origin = first ?? start
      first = origin
      statuses += [EntryStatus?](repeating: nil, count: origin.days(to: start) - statuses.count)
      for (index, code) in days.utf8.prefix(Day.daysIn(month: start.month, year: start.year)).enumerated() {
        switch code {
        case UInt8(ascii: "d"): statuses.append(.done)
        case UInt8(ascii: "s"): statuses.append(.skipped)
        case UInt8(ascii: "."): statuses.append(nil)
        default:
          throw StoreError.corrupt("habit_months of habit \(habit) has '\(days)' for \(monthText), day \(index + 1)")
        }
      }
    }
    guard let first else { return HabitHistory([]) }
    return HabitHistory(startingOn: first, statuses: statuses)
  }
}
