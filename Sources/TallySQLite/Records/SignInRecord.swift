import Foundation
import GRDB
import TallyStore

/// A row of a sign-in credential (an API token, a browser session): one user's, found by
/// the hash of its secret. Its id and its hash are each unique, and only its user deletes it.
protocol SignInRecord: FetchableRecord, PersistableRecord {
  /// What the credential is called in an error: "an API token".
  static var noun: String { get }
  static func notFound(_ id: UUID) -> StoreError
  var id: String { get }
  var tokenHash: String { get }
}

extension Database {
  /// Inserts `record`, refusing an id or a hash that another credential of its kind holds.
  func insertCredential<Record: SignInRecord>(_ record: Record) throws {
    guard try !Record.exists(self, key: record.id) else {
      throw StoreError.conflict("\(Record.noun) with id \(record.id) already exists")
    }
    guard try Record.filter(Column("token_hash") == record.tokenHash).fetchCount(self) == 0 else {
      throw StoreError.conflict("\(Record.noun) with this hash already exists")
    }
    try record.insert(self)
  }

  /// The credential whose secret hashes to `hash` (lower-case).
  func credential<Record: SignInRecord>(hash: String) throws -> Record? {
    try Record.fetchOne(
      cachedStatement(sql: "SELECT * FROM \(Record.databaseTableName) WHERE token_hash = ?"), arguments: [hash])
  }

  /// Deletes `user`'s credential `id`; not found when `user` has none of that id.
  func deleteCredential<Record: SignInRecord>(_: Record.Type, id: UUID, for user: UUID) throws {
    let deleted = try Record.filter(Column("id") == id.storeText && Column("user_id") == user.storeText)
      .deleteAll(self)
    guard deleted == 1 else { throw Record.notFound(id) }
  }
}
