import Foundation
import TallyPostgres
import TallyStore

/// The PostgreSQL the contract suite runs against, when `TALLY_TEST_POSTGRES_URL` names one
/// (`.ci/postgres-start` makes a throwaway cluster and prints it). Every store gets a schema
/// of its own, so tests stay independent and run in parallel.
public enum PostgresTesting {
  public static let url = ProcessInfo.processInfo.environment["TALLY_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }

  public static let skipped = "TALLY_TEST_POSTGRES_URL is unset: the PostgreSQL store is not tested (eval \"$(.ci/postgres-start)\")"

  /// The URL of a fresh schema no one has used, for a command that takes a URL.
  public static func freshURL() throws -> String {
    guard let url else { throw StoreError.storage(skipped) }
    let schema = "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    return url + (url.contains("?") ? "&" : "?") + "search_path=" + schema
  }

  /// A fresh schema no one has used: open it twice for two server instances.
  public static func freshLocation() throws -> PostgresLocation {
    try PostgresLocation(url: try freshURL())
  }

  /// How long a test's read or write may wait. A whole `swift test` on two cores can keep
  /// Swift's cooperative threads busy for seconds (bcrypt, synchronous SQLite), and a timer
  /// resumed late then beats an answer that came in time: the server's 10 s is for a server.
  public static let timeout: Duration = .seconds(120)

  /// Opens `location` as one more instance would, with the tests' time limit.
  public static func open(_ location: PostgresLocation, connections: Int = 2) async throws -> PostgresAppDatabase {
    try await PostgresAppDatabase.open(location, connections: connections, timeout: timeout)
  }

  /// A new, empty, migrated database in a fresh schema.
  public static func database() async throws -> PostgresAppDatabase {
    try await open(try freshLocation())
  }

  public static func store(clock: @escaping @Sendable () -> Date = { Date() }) async throws -> PostgresStore {
    PostgresStore(try await database(), clock: clock)
  }
}
