import Foundation
import TallyCore
import TallySQLite
import TallyStore

/// `tally-benchmarks storage [--tally PATH | --in-process]`: a cold `stats --json` and `today`
/// over 100 habits × 5 years, 10,000 days marked in one command, and export and import of that
/// database, each next to baselines measured in the same run.
enum StorageBenchmark {
  static let habitCount = 100
  static let years = 5
  static let markedDays = 10_000
  static let now = "2026-03-08T12:00:00Z"
  static let today = Day("2026-03-08")!
  /// Runs per figure; the best is reported, the least disturbed by the rest of the machine.
  static let runs = 5
  /// Export and import take longest, so they run fewer times.
  static let longRuns = 3

  /// Where `swift build -c release` in the root package puts `tally`.
  static let releaseBinary = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // TallyBenchmarks
    .deletingLastPathComponent()  // Sources
    .deletingLastPathComponent()  // Benchmarks
    .deletingLastPathComponent()  // the root package
    .appendingPathComponent(".build/release/tally")

  static func run(_ arguments: [String]) async throws {
    let tally = try runner(arguments)
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("tally-storage-benchmark-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    func file(_ name: String) -> String { folder.appendingPathComponent(name).path }
    let database = file("tally.sqlite")
    let global = ["--db", database, "--now", now]

    // MARK: The database: 100 habits × 5 years, written through the store in one restore.
    var rng = SplitMix64(state: 2026)
    let habits = (0..<habitCount).map { index in
      syntheticHabit(
        index: index, frequency: index % 5 == 4 ? .weekly(targetPerWeek: 1 + index % 6) : .daily,
        years: years, today: today, notePercent: 2, rng: &rng)
    }
    let journal = stride(from: 365 * years - 1, through: 0, by: -3).map { back in
      let day = today.adding(days: -back)
      return try! JournalEntry(day: day, text: "What happened on \(day), in a sentence or two.")
    }
    let snapshot = UserSnapshot(
      settings: UserSettings(timeZone: "UTC", firstWeekday: .monday),
      habits: habits.map { UserSnapshot.HabitWithEntries(habit: $0.0, entries: $0.1) },
      journal: journal, prices: PriceTable.defaults.prices)
    let started = ContinuousClock.now
    try await SQLiteStore(AppDatabase.open(at: database))
      .restore(snapshot, into: .newUser(id: UUID(), name: "bench"))
    let written = (ContinuousClock.now - started).seconds
    let entries = habits.reduce(0) { $0 + $1.1.count }
    let weekly = habits.filter { $0.0.frequency != .daily }.count
    print(
      "Tally storage benchmark: \(habitCount) habits (\(habitCount - weekly) daily, \(weekly) weekly) × \(years) years "
        + "= \(entries) entries (~80% done, 5% skipped, 2% with notes), \(journal.count) journal entries; today \(today).")
    print("A temporary database, written in \(format(written).trimmed) through one Store.restore transaction.")
    print("Commands: \(tally.description).")
    print(
      "Best of \(runs) runs (\(longRuns) for backup, export, import and the \(markedDays)-day mark). The OS file cache "
        + "is warm: cold means a new process (or Tally.run) opening the database.\n")

    // MARK: Baselines, measured in this run.
    let start = try await best(runs, tally) { _ in ["--help"] }
    let open = try await best(runs, tally) { _ in global + ["habit", "list", "--json"] }
    let engine = best(20) { statistics(habits, today: today) }
    let backup = try await best(longRuns, tally) { run in global + ["backup", file("backup-\(run).sqlite")] }
    print("Baselines")
    line("tally --help: start-up, no database", start)
    line("open the database and list habits", open)
    line("engine: HabitStatistics of the \(habitCount) habits, in memory", engine)
    line("copy the database: tally backup (\(megabytes(try size(file("backup-0.sqlite")))))", backup)

    // MARK: The figures, on the database as written.
    print("\nFigures")
    var statsOutput = ""
    let stats = try await best(runs, tally, output: &statsOutput) { _ in global + ["stats", "--json"] }
    try check(statsOutput, against: habits)
    line(
      "stats --json, cold", stats,
      "\(ratio(stats, start)) --help, \(ratio(stats, open)) open and list, \(ratio(stats, engine)) engine")

    let todayView = try await best(runs, tally) { _ in global + ["today"] }
    line("today, cold", todayView, "\(ratio(todayView, start)) --help, \(ratio(todayView, open)) open and list")

    let exported = file("export-0.json")
    let export = try await best(longRuns, tally) { run in
      global + ["export", "--format", "json", "--out", file("export-\(run).json")]
    }
    line("export --format json (\(megabytes(try size(exported))))", export, "\(ratio(export, backup)) backup")

    let importing = try await best(longRuns, tally) { run in
      ["--db", file("imported-\(run).sqlite"), "--now", now, "import", exported]
    }
    let again = try await tally.run(["--db", file("imported-0.sqlite"), "--now", now, "export", "--format", "json"])
    guard again.output == (try String(contentsOfFile: exported, encoding: .utf8)) else {
      throw BenchmarkFailure(description: "The database imported from \(exported) exports different text.")
    }
    line(
      "import into an empty database", importing,
      "\(ratio(importing, backup)) backup, \(ratio(importing, export)) export; round trip identical")

    // Marking adds habits, so it comes last. Each long run marks a habit of its own, so every
    // run writes 10,000 new entries.
    _ = try await tally.run(global + ["habit", "add", "One day", "--created", "\(today)"])
    let markOne = try await best(runs, tally) { _ in global + ["mark", "One day", "\(today)"] }
    let first = today.adding(days: -(markedDays - 1))
    var mark = Double.infinity
    for run in 0..<longRuns {
      _ = try await tally.run(global + ["habit", "add", "Long \(run)", "--created", "\(first)"])
      let (seconds, output) = try await tally.run(global + ["mark", "Long \(run)", "\(first)..\(today)"])
      guard output.hasPrefix("Long \(run): \(markedDays) days from \(first) to \(today) done.") else {
        throw BenchmarkFailure(description: "mark printed something unexpected: \(output)")
      }
      mark = min(mark, seconds)
    }
    let perDay = (mark - markOne) / Double(markedDays - 1)
    line("mark 1 day (a baseline)", markOne)
    line(
      "mark \(first)..\(today): \(markedDays) days", mark,
      "\(ratio(mark, markOne)) mark 1 day, \(ratio(mark, open)) open and list; \(format(perDay).trimmed) a day more")
  }

  /// `--tally PATH`, `--in-process`, or the release build when it is there.
  static func runner(_ arguments: [String]) throws -> TallyRunner {
    var arguments = arguments[...]
    var chosen: TallyRunner?
    while let argument = arguments.popFirst() {
      switch argument {
      case "--in-process":
        chosen = .inProcess
      case "--tally":
        guard let path = arguments.popFirst() else {
          throw BenchmarkFailure(description: "--tally needs the path of a tally executable.")
        }
        guard FileManager.default.isExecutableFile(atPath: path) else {
          throw BenchmarkFailure(description: "There is no executable at \(path) for --tally.")
        }
        chosen = .binary(URL(fileURLWithPath: path))
      default:
        throw BenchmarkFailure(
          description: "'\(argument)' is not an option of the storage benchmark: give --tally PATH or --in-process.")
      }
    }
    if let chosen { return chosen }
    if FileManager.default.isExecutableFile(atPath: releaseBinary.path) { return .binary(releaseBinary) }
    print(
      "There is no tally at \(releaseBinary.path) (swift build -c release --product tally makes it), "
        + "so commands run in this process.")
    return .inProcess
  }

  /// `stats --json` must agree with the engine on every habit, or its time means nothing.
  static func check(_ output: String, against habits: [(Habit, [HabitEntry])]) throws {
    let rows = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]] ?? []
    let byID = Dictionary(uniqueKeysWithValues: habits.map { ($0.0.id.storeText, $0) })
    var matched = 0
    for row in rows {
      guard let id = row["id"] as? String, let (habit, entries) = byID[id] else { continue }
      let expected = HabitStatistics(
        habit: habit, history: HabitHistory(entries), today: today, firstWeekday: .monday)
      guard row["currentStreak"] as? Int == expected.currentStreak,
        row["longestStreak"] as? Int == expected.longestStreak,
        let score = row["score"] as? Double, abs(score - expected.score) < 1e-9
      else {
        throw BenchmarkFailure(description: "stats --json disagrees with the engine about \(habit.name).")
      }
      matched += 1
    }
    guard matched == habits.count else {
      throw BenchmarkFailure(description: "stats --json listed \(matched) of the \(habits.count) habits.")
    }
  }
}

// MARK: - Timing and printing

/// The best wall time of `repetitions` runs of the command `arguments(run)` names.
private func best(
  _ repetitions: Int, _ tally: TallyRunner, _ arguments: (Int) -> [String]
) async throws -> Double {
  var output = ""
  return try await best(repetitions, tally, output: &output, arguments)
}

/// As above, keeping the last run's standard output.
private func best(
  _ repetitions: Int, _ tally: TallyRunner, output: inout String, _ arguments: (Int) -> [String]
) async throws -> Double {
  var fastest = Double.infinity
  for run in 0..<repetitions {
    let result = try await tally.run(arguments(run))
    fastest = min(fastest, result.seconds)
    output = result.output
  }
  return fastest
}

/// One figure, and what it is as multiples of baselines.
private func line(_ label: String, _ seconds: Double, _ ratios: String? = nil) {
  let padded = label.padding(toLength: 56, withPad: " ", startingAt: 0)
  print("  \(padded)\(format(seconds))" + (ratios.map { "   = \($0)" } ?? ""))
}

/// "12.3×".
private func ratio(_ figure: Double, _ baseline: Double) -> String {
  String(format: figure / baseline < 10 ? "%.1f×" : "%.0f×", figure / baseline)
}

private func size(_ path: String) throws -> Int {
  (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
}

private func megabytes(_ bytes: Int) -> String {
  String(format: "%.1f MB", Double(bytes) / 1_000_000)
}

extension String {
  /// Without the padding `format` adds for columns.
  fileprivate var trimmed: String { trimmingCharacters(in: .whitespaces) }
}
