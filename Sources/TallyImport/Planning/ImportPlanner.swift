import Foundation
import TallyCore
import TallyStore

/// What an import will do, worked out before anything is written: the additions for the
/// store and the summary a person reads (or a dry run prints).
public struct ImportPlan: Sendable {
  public var additions: HistoryAdditions
  public var summary: ImportSummary
}

/// What an import did or, in a dry run, would do.
public struct ImportSummary: Codable, Hashable, Sendable {
  public var format: ImportFormat
  public var dryRun: Bool
  /// Habits in the file.
  public var habits: Int
  /// Habits created, and habits the file shares with the user (matched by name, or by id in
  /// Tally's CSV), whose settings are left as they are.
  public var newHabits: Int
  public var matchedHabits: Int
  /// Entries added, and how many of them carry a note.
  public var entries: Int
  public var notes: Int
  /// Days the user already has exactly as the file says: nothing to do.
  public var unchanged: Int
  /// Days the user has with another status or note: kept as they are, never replaced.
  public var conflicts: Int
  /// The first ``ImportPlanner/listedConflicts`` of them.
  public var conflictDays: [ImportConflict]
  /// What could not be carried exactly, or at all, each with its reason.
  public var warnings: [ImportWarning]
  /// How people call the format: "Daylio CSV export".
  public var formatTitle = ""
  /// Each habit of the file: new or matched, and the days it gets.
  public var habitList: [ImportHabitLine] = []
  /// Journal days that get an entry, days whose entry gets text added after what is there,
  /// and days whose entry already holds the file's text.
  public var journalAdded = 0
  public var journalMerged = 0
  public var journalUnchanged = 0
}

/// One habit of a file in a summary: what happens to it.
public struct ImportHabitLine: Codable, Hashable, Sendable {
  /// The name it has (or gets) in Tally.
  public var name: String
  public var isNew: Bool
  public var entries: Int
  public var notes: Int
}

/// A day an import left alone because the user's entry differs from the file's.
public struct ImportConflict: Codable, Hashable, Sendable {
  public var habit: String
  public var day: Day
  /// `nil` when the entry appeared between planning and writing.
  public var stored: EntryStatus?
  public var imported: EntryStatus

  public init(habit: String, day: Day, stored: EntryStatus?, imported: EntryStatus) {
    self.habit = habit
    self.day = day
    self.stored = stored
    self.imported = imported
  }
}

/// Matches an ``ImportedHistory`` against a user's habits.
///
/// A file's habit is the user's habit with the same id (Tally's CSV) or, failing that, the
/// same name as ``NameKey`` compares them, archived habits included; any other becomes a new habit after the
/// user's, in the file's order. Entries only fill days that have none: a day with an entry
/// is unchanged when it matches and a conflict, kept as stored, when it does not. So an
/// import never overwrites, and importing the same file again adds nothing.
public enum ImportPlanner {
  public static let listedConflicts = 100

  public static func plan(
    _ history: ImportedHistory, existing: [Habit], entries: [UUID: [HabitEntry]], journal: [JournalEntry] = [],
    today: Day, dryRun: Bool, makeID: () -> UUID = UUID.init
  ) throws(ImportError) -> ImportPlan {
    var summary = ImportSummary(
      format: history.format, dryRun: dryRun, habits: history.habits.count, newHabits: 0, matchedHabits: 0,
      entries: 0, notes: 0, unchanged: 0, conflicts: 0, conflictDays: [], warnings: history.warnings)
    summary.formatTitle = history.format.title
    var additions = HistoryAdditions()
    let byID = Dictionary(existing.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    let byName = Dictionary(
      existing.map { (NameKey.comparisonKey($0.name), $0) }, uniquingKeysWith: { first, _ in first })
    var takenNames = Set(existing.map { NameKey.comparisonKey($0.name) })
    var nextOrder = (existing.map(\.sortOrder).max() ?? -1) + 1
    var current: [UUID: [Day: HabitEntry]] = [:]
    var sameName: [String: Int] = [:]
    for (index, imported) in history.habits.enumerated() {
      let name = try validName(imported.name, index: index, warnings: &summary.warnings)
      if let earliest = (imported.entries.map(\.day) + [imported.createdDay].compactMap { $0 }).min() {
        do {
          try Day.checkKept(earliest)
        } catch {
          throw ImportError("the habit '\(imported.name)'", "its \(error.field) \(error.rule)")
        }
      }
      // The file's second habit of a name (habits without an id: other apps' files) is the
      // one a first import named "name (2)", so a second import matches each to its own.
      var occurrence = 1
      if imported.id == nil {
        occurrence += sameName[NameKey.comparisonKey(name)] ?? 0
        sameName[NameKey.comparisonKey(name)] = occurrence
      }
      let lookup = occurrence == 1 ? name : numbered(name, occurrence)
      if let match = imported.id.flatMap({ byID[$0] }) ?? byName[NameKey.comparisonKey(lookup)] {
        summary.matchedHabits += 1
        // What the habit will hold, planned days included, so two of the file's habits that
        // match one of the user's never plan one day twice.
        var stored =
          current[match.id]
          ?? Dictionary((entries[match.id] ?? []).map { ($0.day, $0) }, uniquingKeysWith: { first, _ in first })
        defer { current[match.id] = stored }
        var adding: [HabitEntry] = []
        for entry in imported.entries {
          let entry = HabitEntry(
            day: entry.day, status: entry.status, note: normalizedNote(entry.note), amount: entry.amount)
          guard let old = stored[entry.day] else {
            adding.append(entry)
            stored[entry.day] = entry
            continue
          }
          if old.status == entry.status && normalizedNote(old.note) == entry.note {
            summary.unchanged += 1
          } else {
            summary.conflicts += 1
            if summary.conflictDays.count < listedConflicts {
              summary.conflictDays.append(
                ImportConflict(habit: match.name, day: entry.day, stored: old.status, imported: entry.status))
            }
          }
        }
        if !adding.isEmpty {
          additions.entries[match.id, default: []] += adding
          count(adding, into: &summary)
        }
        summary.habitList.append(
          ImportHabitLine(
            name: match.name, isNew: false, entries: adding.count, notes: adding.filter { $0.note != nil }.count))
        continue
      }
      // Two habits of one file with one name: the later ones get a number.
      var unique = name
      var number = 2
      while takenNames.contains(NameKey.comparisonKey(unique)) {
        unique = numbered(name, number)
        number += 1
      }
      if unique != name {
        summary.warnings.append(
          ImportWarning(habit: imported.name, "another habit in the file has this name, so this one is named '\(unique)'"))
      }
      takenNames.insert(NameKey.comparisonKey(unique))
      let first = imported.entries.map(\.day).min()
      let createdDay = [imported.createdDay, first].compactMap { $0 }.min().map { min($0, today) } ?? today
      let habit: Habit
      do {
        habit = try Habit(
          id: makeID(), name: unique, color: imported.color, createdDay: createdDay, frequency: imported.frequency,
          reminder: imported.reminder, archived: imported.archived, sortOrder: nextOrder, measure: imported.measure,
          description: imported.description)
      } catch {
        throw ImportError("the habit '\(imported.name)'", "its \(error.field) \(error.rule)")
      }
      nextOrder += 1
      summary.newHabits += 1
      let habitEntries = imported.entries.map {
        HabitEntry(day: $0.day, status: $0.status, note: normalizedNote($0.note), amount: $0.amount)
      }
      additions.newHabits.append(UserSnapshot.HabitWithEntries(habit: habit, entries: habitEntries))
      count(habitEntries, into: &summary)
      summary.habitList.append(
        ImportHabitLine(
          name: unique, isNew: true, entries: habitEntries.count, notes: habitEntries.filter { $0.note != nil }.count))
    }
    try planJournal(history.journal, stored: journal, additions: &additions, summary: &summary)
    // The store checks the same rules; checking here refuses a bad note before a dry run
    // reports success.
    do {
      additions = try additions.checked()
    } catch {
      throw ImportError(nil, "\(error)")
    }
    return ImportPlan(additions: additions, summary: summary)
  }

  /// The file's journal text by day, in its order, against the user's journal (``JournalMerge``).
  static func planJournal(
    _ pieces: [ImportedJournalText], stored: [JournalEntry], additions: inout HistoryAdditions,
    summary: inout ImportSummary
  ) throws(ImportError) {
    for piece in pieces {
      do {
        try Day.checkKept(piece.day)
      } catch {
        throw ImportError(piece.source, "its \(error.field) \(error.rule)")
      }
      guard let text = JournalMerge.piece(piece.text) else { continue }
      if !(additions.journal[piece.day] ?? []).contains(text) { additions.journal[piece.day, default: []].append(text) }
    }
    let byDay = Dictionary(stored.map { ($0.day, $0.text) }, uniquingKeysWith: { first, _ in first })
    for (day, texts) in additions.journal {
      let outcome: JournalMerge.Outcome
      do {
        outcome = try JournalMerge.merged(stored: byDay[day], adding: texts, day: day)
      } catch {
        let source = pieces.first { $0.day == day }?.source
        guard case .invalid(let broken) = error else { throw ImportError(source, "\(error)") }
        throw ImportError(source, "the journal text of \(day) \(broken.rule)")
      }
      switch outcome {
      case .added: summary.journalAdded += 1
      case .merged: summary.journalMerged += 1
      case .unchanged:
        summary.journalUnchanged += 1
        additions.journal[day] = nil
      }
    }
  }

  /// "name (n)", the name shortened to leave room for the number.
  static func numbered(_ name: String, _ number: Int) -> String {
    let suffix = " (\(number))"
    return String(name.prefix(Habit.nameLengths.upperBound - suffix.count)) + suffix
  }

  static func count(_ entries: [HabitEntry], into summary: inout ImportSummary) {
    summary.entries += entries.count
    summary.notes += entries.filter { $0.note != nil }.count
  }

  /// Notes as the store keeps them: trimmed, blank ones none. A note too long for Tally is
  /// left for the store's check to refuse, naming it.
  static func normalizedNote(_ note: String?) -> String? {
    guard let trimmed = note?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
    return trimmed
  }

  /// The name trimmed; one too long for Tally is shortened, with a warning.
  static func validName(_ name: String, index: Int, warnings: inout [ImportWarning]) throws(ImportError) -> String {
    let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty else {
      throw ImportError("habit \(index + 1) of the file", "it has no name")
    }
    var result = trimmed
    if trimmed.count > Habit.nameLengths.upperBound {
      result = String(trimmed.prefix(Habit.nameLengths.upperBound)).trimmingCharacters(in: .whitespaces)
      warnings.append(ImportWarning(habit: name, "its name is longer than 100 characters, so it is cut to '\(result)'"))
    }
    do {
      return try Habit.validName(result)
    } catch {
      throw ImportError("the habit '\(name)'", "its \(error.field) \(error.rule)")
    }
  }
}

extension ImportPlanner {
  /// Plans `history` against the user's habits and, unless `dryRun`, writes it in one
  /// transaction. A day that gained an entry between planning and writing is kept as it
  /// is and counted as a conflict.
  public static func run(
    _ history: ImportedHistory, store: any Store, user: UUID, today: Day, dryRun: Bool
  ) async throws -> ImportSummary {
    let existing = try await store.habits(for: user, includingArchived: true)
    let entries = try await store.entries(in: Day.allTime, for: user)
    let journal = history.journal.isEmpty ? [] : try await store.journalEntries(in: Day.allTime, for: user)
    var plan = try plan(history, existing: existing, entries: entries, journal: journal, today: today, dryRun: dryRun)
    guard !dryRun else { return plan.summary }
    let added = try await store.addHistory(plan.additions, for: user)
    let names = Dictionary(existing.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
    for (habit, days) in added.daysKept {
      let imported = Dictionary(
        (plan.additions.entries[habit] ?? []).map { ($0.day, $0.status) }, uniquingKeysWith: { first, _ in first })
      for day in days {
        plan.summary.conflicts += 1
        if plan.summary.conflictDays.count < listedConflicts {
          plan.summary.conflictDays.append(
            ImportConflict(habit: names[habit] ?? habit.storeText, day: day, stored: nil, imported: imported[day] ?? .done))
        }
      }
    }
    plan.summary.entries = added.entriesAdded
    // Another write may have filled a day between planning and writing: the store's counts win.
    plan.summary.journalUnchanged += plan.summary.journalAdded + plan.summary.journalMerged
      - added.journalAdded - added.journalMerged
    plan.summary.journalAdded = added.journalAdded
    plan.summary.journalMerged = added.journalMerged
    return plan.summary
  }
}
