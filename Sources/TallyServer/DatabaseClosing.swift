import Logging
import ServiceLifecycle

/// Closes the database after everything else in the server has stopped (the first service of
/// the group is the last to be shut down). SQLite then folds its log into the file, so a
/// stopped server leaves one file that is the whole database; PostgreSQL's connections end
/// cleanly instead of being cut.
struct DatabaseClosing: Service {
  let close: @Sendable () throws -> Void
  let logger: Logger

  func run() async throws {
    // Returns when the group shuts down, gracefully or not; either way nothing is running
    // that could still use the database.
    try? await gracefulShutdown()
    do {
      try close()
    } catch {
      logger.warning("The database could not be closed cleanly; the next start reads its log: \(error)")
    }
  }
}
