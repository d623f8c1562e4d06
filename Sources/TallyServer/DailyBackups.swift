import Foundation
import Logging
import ServiceLifecycle
import TallySQLite

/// `tally serve --backup-dir DIR --backup-keep N`: a backup of the whole database a day, made
/// with SQLite's online backup while the server runs, named by its UTC date
/// (`tally-backup-2026-03-08.sqlite`). Keeps the `keep` newest of its own files and never
/// touches a file whose name it did not make.
public struct DailyBackups: Service {
  public static let prefix = "tally-backup-"
  public static let suffix = ".sqlite"

  let database: AppDatabase
  let directory: String
  let keep: Int
  let clock: @Sendable () -> Date
  /// How often it looks whether today's backup exists; the day's first look makes it.
  let interval: Duration
  let logger: Logger

  public init(
    database: AppDatabase, directory: String, keep: Int, clock: @escaping @Sendable () -> Date,
    interval: Duration = .seconds(15 * 60), logger: Logger = Logger(label: "tally.backups")
  ) {
    self.database = database
    self.directory = directory
    self.keep = max(1, keep)
    self.clock = clock
    self.interval = interval
    self.logger = logger
  }

  public func run() async throws {
    do {
      try await cancelWhenGracefulShutdown {
        while true {
          do {
            if let made = try backUpIfDue() { logger.info("Backed up the database to \(made)") }
          } catch {
            // A failed backup is retried at the next look; the server keeps serving.
            logger.error("The daily backup failed: \(error)")
          }
          try await Task.sleep(for: interval)
        }
      }
    } catch is CancellationError {
      return
    }
  }

  /// Makes today's backup unless it is there, then removes this service's oldest backups
  /// beyond `keep`. Returns the path made, `nil` when today's existed.
  @discardableResult
  public func backUpIfDue() throws -> String? {
    let folder = URL(fileURLWithPath: directory)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let name = Self.prefix + Self.utcDay(clock()) + Self.suffix
    let path = folder.appendingPathComponent(name).path
    var made: String?
    if !FileManager.default.fileExists(atPath: path) {
      // Written under another name and renamed, so a file with the final name is complete.
      let partial = folder.appendingPathComponent(".\(name).partial").path
      try? FileManager.default.removeItem(atPath: partial)
      try database.backup(to: partial)
      try FileManager.default.moveItem(atPath: partial, toPath: path)
      made = path
    }
    for old in try backups().dropFirst(keep) {
      try FileManager.default.removeItem(atPath: folder.appendingPathComponent(old).path)
    }
    return made
  }

  /// This service's backups in the directory, newest first.
  public func backups() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory)
      .filter(Self.isBackupName)
      .sorted(by: >)
  }

  static func isBackupName(_ name: String) -> Bool {
    guard name.hasPrefix(prefix), name.hasSuffix(suffix) else { return false }
    let date = name.dropFirst(prefix.count).dropLast(suffix.count)
    return date.count == 10
      && date.enumerated().allSatisfy { index, character in
        index == 4 || index == 7 ? character == "-" : character.isASCII && character.isNumber
      }
  }

  static func utcDay(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let parts = calendar.dateComponents([.year, .month, .day], from: date)
    return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
  }
}
