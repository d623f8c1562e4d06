import ArgumentParser
import TallyCore

/// A `tally` subcommand: parsed by ArgumentParser, run with a ``CommandContext`` instead of
/// the process's globals.
protocol TallyCommand: ParsableCommand {
  func run(in context: CommandContext) async throws
}

extension TallyCommand {
  /// Never called: ``Tally/run(arguments:context:)`` calls ``run(in:)``.
  func run() throws {
    throw CommandFailure("tally commands run through Tally.run(arguments:context:).")
  }
}

/// An error `validate()` reports: ArgumentParser prints it and exits with status 64.
typealias UsageError = ArgumentParser.ValidationError

/// Runs an engine parse inside `validate()`, reporting a broken rule as a usage error in the
/// same words the store would use.
func checked<T>(_ body: () throws(TallyCore.ValidationError) -> T) throws(UsageError) -> T {
  do {
    return try body()
  } catch {
    throw UsageError(Sentence.rule(error))
  }
}
