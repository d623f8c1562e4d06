import TallyBuildInfo
import TallyPostgres
import TallySQLite

/// What `tally --version` prints: the release, the commit it was built from and the newest
/// schema of each database, so a self-hoster can say exactly what they run.
enum TallyVersion {
  /// The release. scripts/release names the tarball after it; raise it when releasing.
  static let number = "0.1.0"

  static var commit: String { String(cString: tally_build_commit()) }

  static var text: String {
    """
    tally \(number)
    commit \(commit)
    schema SQLite \(AppDatabase.schemaVersions.last ?? "none"), PostgreSQL \(PostgresAppDatabase.schemaVersions.last ?? "none")
    """
  }
}
