import ArgumentParser
import Foundation
import TallySQLite

/// `tally backup PATH`
struct BackupCommand: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "backup",
    abstract: "Copy the whole database to a new file, safely while it is in use.",
    discussion: "Uses SQLite's online backup. The copy is a Tally database: open it with --db.")

  @OptionGroup var global: GlobalOptions

  @Argument(help: ArgumentHelp("The new file; it must not exist yet.", valueName: "path"))
  var path: String

  func run(in context: CommandContext) async throws {
    guard !FileManager.default.fileExists(atPath: path) else {
      throw CommandFailure(
        "The file \(path) already exists; a backup never replaces a file, so name a new one.")
    }
    let opener = SessionOpener(options: global, context: context)
    let (database, _) = try opener.openStore()
    try database.backup(to: path)
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    context.standardOutput.line("Backed up \(database.path ?? "the database") to \(path) (\(size / 1024) KiB).")
  }
}
