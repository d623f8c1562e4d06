import Foundation
import TallyCLI

/// A benchmark step that could not run; the message says which and why.
struct BenchmarkFailure: Error, CustomStringConvertible {
  let description: String
}

/// Runs `tally` commands and times them. Either way every command opens the database afresh,
/// as a person's command does.
enum TallyRunner {
  /// A built `tally` executable, started as a new process for each command: the real cost,
  /// process start and dynamic linking included.
  case binary(URL)
  /// `Tally.run` in this process: the same parse-and-run path without process start.
  case inProcess

  var description: String {
    switch self {
    case .binary(let url): "each command a new process of \(url.path)"
    case .inProcess: "in this process through Tally.run (no tally binary), a fresh database open per command"
    }
  }

  /// Runs one command; returns its wall time in seconds and its standard output. A command
  /// that fails stops the benchmark with its error.
  func run(_ arguments: [String]) async throws -> (seconds: Double, output: String) {
    switch self {
    case .binary(let url):
      return try runProcess(url, arguments)
    case .inProcess:
      let out = Buffer()
      let err = Buffer()
      let context = CommandContext(
        environment: ["TZ": "UTC"],
        standardOutput: TextStream { out.append($0) },
        standardError: TextStream { err.append($0) },
        clock: { Date() },
        systemTimeZone: "UTC")
      let started = ContinuousClock.now
      let status = await Tally.run(arguments: arguments, context: context)
      let seconds = (ContinuousClock.now - started).seconds
      guard status == 0 else { throw failure(arguments, status, err.text) }
      return (seconds, out.text)
    }
  }

  private func runProcess(_ url: URL, _ arguments: [String]) throws -> (seconds: Double, output: String) {
    // Output goes to files, not pipes: a full pipe would stall the command being timed.
    let folder = FileManager.default.temporaryDirectory
    let outURL = folder.appendingPathComponent("tally-benchmark-\(UUID().uuidString).out")
    let errURL = folder.appendingPathComponent("tally-benchmark-\(UUID().uuidString).err")
    guard
      FileManager.default.createFile(atPath: outURL.path, contents: nil),
      FileManager.default.createFile(atPath: errURL.path, contents: nil)
    else {
      throw BenchmarkFailure(description: "The output files in \(folder.path) could not be created.")
    }
    defer {
      try? FileManager.default.removeItem(at: outURL)
      try? FileManager.default.removeItem(at: errURL)
    }
    let process = Process()
    process.executableURL = url
    process.arguments = arguments
    process.environment = ["TZ": "UTC", "PATH": "/usr/bin:/bin"]
    process.standardOutput = try FileHandle(forWritingTo: outURL)
    process.standardError = try FileHandle(forWritingTo: errURL)
    let started = ContinuousClock.now
    try process.run()
    process.waitUntilExit()
    let seconds = (ContinuousClock.now - started).seconds
    let output = (try? String(contentsOf: outURL, encoding: .utf8)) ?? ""
    guard process.terminationStatus == 0 else {
      throw failure(arguments, process.terminationStatus, (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
    }
    return (seconds, output)
  }

  private func failure(_ arguments: [String], _ status: Int32, _ stderr: String) -> BenchmarkFailure {
    BenchmarkFailure(
      description: "'tally \(arguments.joined(separator: " "))' exited with status \(status): "
        + stderr.trimmingCharacters(in: .whitespacesAndNewlines))
  }
}

/// Text a command writes in this process.
private final class Buffer: @unchecked Sendable {
  private let lock = NSLock()
  private var value = ""

  func append(_ text: String) { lock.withLock { value += text } }
  var text: String { lock.withLock { value } }
}
