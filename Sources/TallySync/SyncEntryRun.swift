import Foundation
import TallyCore

/// A pulled page's entries, checked and written out as rows before the page is merged: a
/// replica reads the next page while it merges this one, so this work happens beside the
/// merge instead of inside its transaction. A first pull is nearly all entries, each new
/// to the replica; a store that finds every habit they name present and holding no entries
/// writes the rows as they are, and otherwise merges the page's changes one by one.
public struct SyncEntryRun: Hashable, Sendable {
  /// `[[habit, day, status, note, amount in thousandths or null, stamp], …]` as JSON, one row
  /// per entry change, in the page's order.
  public let rows: String
  public let count: Int
  /// The habits the rows name, each once, in the order they first appear.
  public let habits: [String]
  /// Each habit's first and last day the rows name.
  public let daySpans: HabitDaySpans

  /// `nil` unless every entry change in `changes` sets a status (a day cleared is merged
  /// one by one) and is well formed. A day named twice is two rows: the later stamp wins.
  public init?(_ changes: [SyncChange]) {
    var rows = "["
    var count = 0
    var habits: [String] = []
    var spans = HabitDaySpans()
    for change in changes where change.kind == .entry {
      guard (try? SyncBatchRules.checkShape(change)) != nil,
        case .entry? = try? SyncID(change.key),
        let value = try? SyncFields.entry(change.fields), let status = value.status
      else { return nil }
      // A checked entry id is `HABIT/DAY`, both parts in their one written form.
      let (habit, day) = SyncID.split(change.id)!
      if habits.last.map({ $0 != habit }) ?? true, !habits.contains(where: { $0 == habit }) {
        habits.append(String(habit))
      }
      spans.add(habit: habit, day: day)
      rows += count == 0 ? "[\"" : ",[\""
      rows += habit
      rows += "\",\""
      rows += day
      rows += "\",\"\(status.rawValue)\","
      if let note = value.note { SyncJSONText.append(note, to: &rows) } else { rows += "null" }
      rows += ","
      rows += value.amount.map { String($0.thousandths) } ?? "null"
      rows += ",\"\(change.stamp.text)\"]"
      count += 1
    }
    guard count > 0 else { return nil }
    self.rows = rows + "]"
    self.count = count
    self.habits = habits
    self.daySpans = spans
  }
}
