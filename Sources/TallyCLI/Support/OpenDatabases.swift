import Synchronization
import TallySQLite

/// The database files a command opened, closed when it ends (``Tally/run(arguments:context:)``):
/// the process exits without tearing anything down, so without this the last commits would
/// stay in the `-wal` file beside the database instead of in it.
public final class OpenDatabases: Sendable {
  private let databases = Mutex<[AppDatabase]>([])

  public init() {}

  func keep(_ database: AppDatabase) {
    databases.withLock { $0.append(database) }
  }

  /// Closes each; one that cannot close (another connection busy) keeps its log, which the
  /// next program to open it reads, so nothing is lost either way.
  func closeAll() {
    for database in databases.withLock({ list in defer { list = [] }; return list }) {
      try? database.close()
    }
  }
}
