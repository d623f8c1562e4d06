import Foundation
import TallyPostgres
import TallyStore

/// The PostgreSQL the contract suite runs against, when `TALLY_TEST_POSTGRES_URL` names one
/// (`.ci/postgres-start` makes a throwaway cluster and prints it). Every store gets a schema
/// of its own, so tests stay independent and run in parallel.
public enum PostgresTesting {
  public static let url = ProcessInfo.processInfo.environment["TALLY_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }

  public static let skipped = "TALLY_TEST_POSTGRES_URL is unset: the PostgreSQL store is not tested (eval \"$(.ci/postgres-start)\")"

  /// A fresh schema no one has used: open it twice for two server instances.
  public static func freshLocation() throws -> PostgresLocation {
    guard let url else { throw StoreError.storage(skipped) }
    let schema = "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    let separator = url.contains("?") ? "&" : "?"
    return try PostgresLocation(url: url + separator + "search_path=" + schema)
  }

  /// A new, empty, migrated database in a fresh schema.
  public static func database() async throws -> PostgresAppDatabase {
    try await PostgresAppDatabase.open(try freshLocation(), connections: 2)
  }

  public static func store(clock: @escaping @Sendable () -> Date = { Date() }) async throws -> PostgresStore {
    PostgresStore(try await database(), clock: clock)
  }
}
