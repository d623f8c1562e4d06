import Foundation
import Logging
import TallyHTTP
import TallyPostgres
import TallySQLite
import TallyStore
import TallySync

/// The one place the server picks its store: PostgreSQL when ``ServerConfiguration/databaseURL``
/// names one, else the SQLite file (or memory). Everything else talks to ``SyncingStore``;
/// only daily backups need the SQLite database itself.
enum ServerStore {
  /// The store, the SQLite database behind it (for backups), and how to close whichever it is.
  static func open(_ configuration: ServerConfiguration, clock: @escaping @Sendable () -> Date, logger: Logger)
    async throws -> (store: any SyncingStore, sqlite: AppDatabase?, close: @Sendable () throws -> Void)
  {
    if let url = configuration.databaseURL {
      let location = try PostgresLocation(url: url)
      var postgresLogger = logger
      postgresLogger[metadataKey: "database"] = "\(location.description)"
      let connections = configuration.databaseConnections ?? PostgresAppDatabase.defaultConnections
      let database = try await PostgresAppDatabase.open(location, connections: connections, logger: postgresLogger)
      return (PostgresStore(database, clock: clock), nil, { database.close() })
    }
    let database =
      if let path = configuration.databasePath {
        try AppDatabase.open(at: path, adoptingEmptyFile: configuration.adoptEmptyDatabase)
      } else { try AppDatabase.inMemory() }
    return (SQLiteStore(database, clock: clock), database, { try database.close() })
  }
}
