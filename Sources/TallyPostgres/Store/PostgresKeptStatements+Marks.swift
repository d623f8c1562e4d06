import Foundation
import PostgresNIO

extension PostgresKeptStatements {
  /// What a mark decides from, read without a lock by `tally_read_marks` (PostgresMigrations'
  /// `v7`): ``markColumns`` and the head's position.
  struct ReadMarks: PostgresPreparedStatement {
    static let name = "tally_read_marks"
    static let sql = "SELECT m.head_position, \(markColumns) FROM tally_read_marks($1, $2, $3, $4) AS m"
    static let bindingDataTypes: [PostgresDataType] = [.uuid, .uuid, .textArray, .textArray]
    let habit: UUID
    let user: UUID
    let days: [String]
    /// The feed's id of each of `days`' entries, in the same order.
    let ids: [String]

    func makeBindings() throws -> PostgresBindings {
      var bindings = PostgresBindings(capacity: 4)
      bindings.append(habit)
      bindings.append(user)
      bindings.append(days)
      bindings.append(ids)
      return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> PostgresRandomAccessRow { row.makeRandomAccess() }
  }

  /// The days and their feed rows written by `tally_write_marks` if the user's head is still
  /// where ``ReadMarks`` found it; answers the new head position, or nil when it moved.
  struct WriteMarks: PostgresPreparedStatement {
    static let name = "tally_write_marks"
    static let sql = "SELECT tally_write_marks($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)"
    static let bindingDataTypes: [PostgresDataType] = [
      .uuid, .int8, .text, .uuid, .text, .text, .int8, .bool, .textArray, .text,
      .textArray, .textArray, .textArray, .textArray,
    ]
    let user: UUID
    let readPosition: Int64
    let readStamp: String?
    let habit: UUID
    let status: String
    let note: String?
    let amount: Int64?
    let keepingNotes: Bool
    let days: [String]
    /// The stamp to keep as the user's latest; nil when nothing is recorded.
    let latest: String?
    let ids: [String]
    let fields: [String]
    let stamps: [String]
    /// Empty for an entity that is not deleted.
    let deleted: [String]

    func makeBindings() throws -> PostgresBindings {
      var bindings = PostgresBindings(capacity: 14)
      bindings.append(user)
      bindings.append(readPosition)
      bindings.append(readStamp)
      bindings.append(habit)
      bindings.append(status)
      bindings.append(note)
      bindings.append(amount)
      bindings.append(keepingNotes)
      bindings.append(days)
      bindings.append(latest)
      for column in [ids, fields, stamps, deleted] { bindings.append(column) }
      return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Int64? { try row.decode(Int64?.self) }
  }
}
