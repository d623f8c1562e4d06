import Foundation
import TallyCLI
import TallyCore
import TallySQLite
import TallyStore
import TallyTMDB
import TallyTestFiles
import Testing

/// Text a command wrote, collected for a test.
final class Captured: @unchecked Sendable {
  private let lock = NSLock()
  private var text = ""

  func append(_ more: String) {
    lock.withLock { text += more }
  }

  var value: String { lock.withLock { text } }
}

/// Standard input for one run.
final class InputLines: @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String]

  init(_ lines: [String]) { self.lines = lines }

  func next() -> String? {
    lock.withLock { lines.isEmpty ? nil : lines.removeFirst() }
  }
}

/// What one `tally …` run left behind.
struct Run {
  let status: Int32
  let stdout: String
  let stderr: String

  /// Standard output parsed as JSON.
  func json() throws -> Any {
    try JSONSerialization.jsonObject(with: Data(stdout.utf8), options: [.fragmentsAllowed])
  }

  var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
}

/// A temporary database and a fixed clock: runs `tally` exactly as a person would, through
/// the real parse-and-run path, without spawning a process.
struct Harness {
  let folder: URL
  let path: String
  var environment: [String: String]
  var isTerminal = false
  var isErrorTerminal = false
  /// What the command reads from standard input, line by line.
  var input: [String] = []
  /// Where show commands get TMDB's answers.
  var showSource: (any ShowSource)?

  /// Sunday 8 March 2026, noon UTC.
  static let defaultNow = "2026-03-08T12:00:00Z"

  init(now: String = Harness.defaultNow, timeZone: String = "UTC") {
    folder = TestFiles.folder("cli")
    path = folder.appendingPathComponent("tally.sqlite").path
    environment = ["TALLY_DB": path, "TALLY_NOW": now, "TZ": timeZone, "USER": "ada"]
  }

  func run(_ arguments: String...) async -> Run {
    await run(arguments)
  }

  func run(_ arguments: [String]) async -> Run {
    let out = Captured()
    let err = Captured()
    let lines = InputLines(input)
    var context = CommandContext(
      environment: environment,
      standardOutput: TextStream(isTerminal: isTerminal) { out.append($0) },
      standardError: TextStream(isTerminal: isErrorTerminal) { err.append($0) },
      clock: { Date(timeIntervalSince1970: 0) },
      systemTimeZone: "UTC",
      readLine: { lines.next() })
    context.showSource = showSource
    let status = await Tally.run(arguments: arguments, context: context)
    return Run(status: status, stdout: out.value, stderr: err.value)
  }

  /// Runs and expects success, returning standard output.
  @discardableResult
  func ok(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) async -> String {
    let result = await run(arguments)
    #expect(result.status == 0, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
    #expect(result.stderr.isEmpty, sourceLocation: sourceLocation)
    return result.stdout
  }

  /// Adds a habit and returns its id.
  func addHabit(_ name: String, _ options: String..., sourceLocation: SourceLocation = #_sourceLocation) async throws -> UUID {
    let result = await run(["habit", "add", name, "--json"] + options)
    #expect(result.status == 0, "\(result.stderr)", sourceLocation: sourceLocation)
    let object = try #require(try result.json() as? [String: Any])
    let id = try #require(object["id"] as? String)
    return try #require(UUID(uuidString: id))
  }

  /// The store itself, to check what a command left there.
  func store() throws -> any Store {
    SQLiteStore(try AppDatabase.open(at: path))
  }

  func user() async throws -> User {
    try #require(try await store().users().first)
  }

  func entries(of habit: UUID) async throws -> [HabitEntry] {
    let store = try store()
    let user = try #require(try await store.users().first)
    return try await store.entries(of: habit, for: user.id)
  }

  /// The database's bytes, to prove a failed command changed nothing.
  func snapshot() async throws -> [String] {
    let store = try store()
    var lines: [String] = []
    for user in try await store.users() {
      lines.append("user \(user)")
      for habit in try await store.habits(for: user.id, includingArchived: true) {
        lines.append("habit \(habit)")
        for entry in try await store.entries(of: habit.id, for: user.id) {
          lines.append("entry \(habit.id) \(entry)")
        }
      }
      let all = Day(year: 1, month: 1, day: 1)!...Day(year: 9999, month: 12, day: 31)!
      for entry in try await store.journalEntries(in: all, for: user.id) {
        lines.append("journal \(entry)")
      }
      for message in try await store.chatMessages(in: all, for: user.id) {
        lines.append("chat \(message)")
      }
      for show in try await store.shows(for: user.id) { lines.append("show \(show)") }
      lines.append("prices \(try await store.priceTable(for: user.id).prices)")
    }
    return lines
  }
}

func day(_ text: String) -> Day {
  guard let day = Day(text) else { preconditionFailure("bad day \(text)") }
  return day
}
