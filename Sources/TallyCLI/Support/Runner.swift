import ArgumentParser
import Foundation

extension Tally {
  /// Parses `arguments` (without the program name) and runs the command they name: help and
  /// completion scripts to standard output, failures as one sentence to standard error.
  /// Returns the exit status.
  public static func run(arguments: [String], context: CommandContext) async -> Int32 {
    let runnable: any TallyCommand
    do {
      var command = try parseAsRoot(arguments)
      guard let tallyCommand = command as? any TallyCommand else {
        // `help`, or a group named without a subcommand: ArgumentParser throws its help.
        try command.run()
        return 0
      }
      runnable = tallyCommand
    } catch {
      let code = exitCode(for: error).rawValue
      if code == 0 {
        context.standardOutput.line(fullMessage(for: error))
      } else {
        context.standardError.line(usageMessage(for: error))
      }
      return code
    }
    defer { context.openDatabases.closeAll() }
    do {
      try await runnable.run(in: context)
      return 0
    } catch {
      let failure = CommandFailure(error)
      context.standardError.line("Error: " + failure.message)
      return failure.exitCode
    }
  }

  /// ArgumentParser's message without the usage line: a rule our `validate()` states is one
  /// sentence; a command line that could not be read also says where to find help.
  static func usageMessage(for error: any Error) -> String {
    let lines = fullMessage(for: error).split(separator: "\n").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    guard let first = lines.first else { return "Error: the command line could not be read." }
    if first.hasSuffix(".") { return first }
    return ([first] + lines.filter { $0.hasPrefix("See '") }).joined(separator: "\n")
  }
}
