import Foundation
import TallyCore
import TallyImport
import TallySQLite
import TallyStore

/// `tally-benchmarks import [BACKUP.db [CSV.zip]]`: importing Loop Habit Tracker's 50-habit,
/// 10-year backup, step by step, each next to the baselines measured in the same run: reading
/// the rows, and restoring the same habits through the store's restore (the same rows written
/// in one transaction, with no matching). Then each other text format on a synthetic file of
/// the same size (``OtherTrackerFiles``).
enum ImportBenchmark {
  static let fixtures = "/work/shared/fixtures/loop"
  static let runs = 3
  static let today = Day("2025-06-30")!

  static func run(_ arguments: [String]) async throws {
    let backup = arguments.first ?? "\(fixtures)/Loop Habits Backup 2025-06-30 big.db"
    let zip = arguments.dropFirst().first ?? "\(fixtures)/Loop Habits CSV 2025-06-30 big.zip"
    guard FileManager.default.fileExists(atPath: backup) else {
      throw BenchmarkFailure(description: "There is no Loop backup at \(backup); name one: tally-benchmarks import PATH.")
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-import-benchmark-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }

    let history = try LoopBackupReader.read(path: backup, today: today)
    let entries = history.habits.reduce(0) { $0 + $1.entries.count }
    print(
      "Loop import benchmark: \(history.habits.count) habits, \(entries) entries to write, "
        + "\(history.warnings.count) warnings; today \(today). Best of \(runs) runs.\n")

    let read = try await best { _ in _ = try LoopBackupReader.read(path: backup, today: today) }
    var readZip: Double?
    if FileManager.default.fileExists(atPath: zip) {
      let zipped = try LoopCSVReader.read(path: zip, today: today)
      guard zipped.habits.map(\.entries) == history.habits.map(\.entries) else {
        throw BenchmarkFailure(description: "The CSV zip and the backup give different entries.")
      }
      readZip = try await best { _ in _ = try LoopCSVReader.read(path: zip, today: today) }
    }
    let plan = try await best { _ in
      _ = try ImportPlanner.plan(history, existing: [], entries: [:], today: today, dryRun: true)
    }
    let planned = try ImportPlanner.plan(history, existing: [], entries: [:], today: today, dryRun: true)
    let restore = try await best { run in
      let store = try await freshStore(folder, "restore-\(run)")
      try await store.restore(
        UserSnapshot(settings: UserSettings(timeZone: "UTC"), habits: planned.additions.newHabits),
        into: .emptyUser(try await store.users()[0].id))
    }
    var summary: ImportSummary?
    let full = try await best { run in
      let store = try await freshStore(folder, "import-\(run)")
      let history = try LoopBackupReader.read(path: backup, today: today)
      summary = try await ImportPlanner.run(
        history, store: store, user: try await store.users()[0].id, today: today, dryRun: false)
    }
    guard summary?.entries == entries else {
      throw BenchmarkFailure(description: "The import wrote \(summary?.entries ?? 0) entries, not \(entries).")
    }
    // Importing the same file again: everything matches, nothing is written.
    let store = try await freshStore(folder, "again")
    let user = try await store.users()[0].id
    _ = try await ImportPlanner.run(history, store: store, user: user, today: today, dryRun: false)
    let again = try await best { _ in
      let summary = try await ImportPlanner.run(
        LoopBackupReader.read(path: backup, today: today), store: store, user: user, today: today, dryRun: false)
      guard summary.entries == 0, summary.unchanged == entries else {
        throw BenchmarkFailure(description: "A second import changed something.")
      }
    }

    print("Baselines")
    row("read the backup's rows into habits (LoopBackupReader)", read)
    row("Store.restore of the same habits into a new database", restore)
    print("\nFigures")
    if let readZip { row("read the CSV zip instead", readZip, "\(ratio(readZip, read)) reading the backup") }
    row("plan against an empty user", plan, "\(ratio(plan, read)) reading")
    row(
      "tally import of the backup into a new database", full,
      "\(ratio(full, read)) reading, \(ratio(full, restore)) restore")
    row("the same import again (all \(entries) days unchanged)", again, "\(ratio(again, full)) the first import")
    try await OtherTrackerFiles.run(today: today)
  }

  static func freshStore(_ folder: URL, _ name: String) async throws -> SQLiteStore {
    let store = SQLiteStore(try AppDatabase.open(at: folder.appendingPathComponent("\(name).sqlite").path))
    _ = try await store.createUser(User(id: UUID(), name: "bench", settings: UserSettings(timeZone: "UTC")))
    return store
  }

  static func best(_ body: (Int) async throws -> Void) async throws -> Double {
    var fastest = Double.infinity
    for run in 0..<runs {
      let started = ContinuousClock.now
      try await body(run)
      fastest = min(fastest, (ContinuousClock.now - started).seconds)
    }
    return fastest
  }

  static func row(_ label: String, _ seconds: Double, _ ratios: String? = nil) {
    let padded = label.padding(toLength: 60, withPad: " ", startingAt: 0)
    print("  \(padded)\(format(seconds))" + (ratios.map { "   = \($0)" } ?? ""))
  }

  static func ratio(_ figure: Double, _ baseline: Double) -> String {
    String(format: figure / baseline < 10 ? "%.2f×" : "%.0f×", figure / baseline)
  }
}
