import Foundation
import PostgresNIO
import TallyStore

/// The statements a mark or a page runs on every request, prepared once per connection:
/// PostgreSQL then neither parses nor plans them again. Parsing and planning were about 40%
/// of the database's CPU for a mark (`perf record`, docs/server.md). Each names its columns,
/// so a newer schema's added column does not invalidate a connection's prepared plan. Each
/// is named here: the driver's default name is the type's name, worked out by reflection on
/// every execution.
enum PostgresKeptStatements {
  /// What a mark reads, from `tally_mark_days` or `tally_read_marks` named `m`: the head, the
  /// habit's columns, and each day's entry and feed row.
  static let markColumns = """
    m.head_stamp, m.head_device, m.head_replica,
      (m.habit_row).id, (m.habit_row).name, (m.habit_row).icon, (m.habit_row).color, (m.habit_row).group_name,
      (m.habit_row).created_day, (m.habit_row).frequency, (m.habit_row).target_per_week,
      (m.habit_row).schedule_times, (m.habit_row).schedule_days, (m.habit_row).reminder,
      (m.habit_row).reminder_start, (m.habit_row).reminder_end, (m.habit_row).reminder_every_hours,
      (m.habit_row).archived, (m.habit_row).sort_order, (m.habit_row).kind, (m.habit_row).unit,
      (m.habit_row).target, (m.habit_row).target_direction, (m.habit_row).description, (m.habit_row).weekdays,
      (m.entry_row).day AS entry_day, (m.entry_row).status AS entry_status, (m.entry_row).note AS entry_note,
      (m.entry_row).amount AS entry_amount, (m.feed_row).entity_id AS feed_id, (m.feed_row).fields AS feed_fields,
      (m.feed_row).stamps AS feed_stamps, (m.feed_row).deleted AS feed_deleted
    """

  /// A statement whose one parameter, `$1`, is the user.
  protocol OfUser: PostgresPreparedStatement {
    var user: UUID { get }
  }

  /// Users' feed heads, the revision every page checks, read together (``Gathered``); a user
  /// who has none is not listed.
  struct HeadsOfUsers: PostgresPreparedStatement {
    static let name = "tally_feed_heads"
    static let sql = "SELECT user_id, position FROM sync_heads WHERE user_id = ANY($1)"
    let users: [UUID]

    func makeBindings() throws -> PostgresBindings {
      var bindings = PostgresBindings(capacity: 1)
      bindings.append(users)
      return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> (UUID, Int64) { try row.decode((UUID, Int64).self) }
  }

  /// Notifications on `channel`, one for each payload, sent when this statement's own
  /// transaction commits (``CommitAnnouncements``).
  struct Announce: PostgresPreparedStatement {
    static let name = "tally_announce"
    static let sql = "SELECT count(*) FROM unnest($2::text[]) AS payload, pg_notify($1, payload)"
    static let bindingDataTypes: [PostgresDataType] = [.text, .textArray]
    let channel: String
    let payloads: [String]

    func makeBindings() throws -> PostgresBindings {
      var bindings = PostgresBindings(capacity: 2)
      bindings.append(channel)
      bindings.append(payloads)
      return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode(Int64.self) }
  }

  /// ``PostgresConnection/lockSyncHead(_:)``.
  struct LockSyncHead: OfUser {
    static let name = "tally_lock_sync_head"
    static let sql = "SELECT head_stamp, head_device, head_replica FROM tally_lock_user($1)"
    let user: UUID

    func decodeRow(_ row: PostgresRow) throws -> (String?, UUID?, Bool) {
      try row.decode((String?, UUID?, Bool).self)
    }
  }

  /// ``PostgresConnection/writeSyncEntities(_:user:latest:)``: positions taken, the latest
  /// stamp kept and the entities written; answers the last position.
  struct WriteSyncEntities: PostgresPreparedStatement {
    static let name = "tally_write_sync_entities"
    static let sql = """
      WITH moved AS (
        UPDATE sync_heads SET position = position + $1, latest_stamp = COALESCE($2, latest_stamp)
        WHERE user_id = $3 RETURNING position),
      written AS (
        INSERT INTO sync_entities (user_id, kind, entity_id, fields, stamps, deleted, position)
        SELECT $3, kind, entity_id, fields, stamps, NULLIF(deleted, ''), moved.position - $1 + n
        FROM moved, unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
          WITH ORDINALITY AS given(kind, entity_id, fields, stamps, deleted, n)
        ON CONFLICT (user_id, kind, entity_id) DO UPDATE SET fields = excluded.fields,
          stamps = excluded.stamps, deleted = excluded.deleted, position = excluded.position)
      SELECT position FROM moved
      """
    static let bindingDataTypes: [PostgresDataType] = [
      .int8, .text, .uuid, .textArray, .textArray, .textArray, .textArray, .textArray,
    ]
    let user: UUID
    let latest: String?
    let kinds: [String]
    let ids: [String]
    let fields: [String]
    let stamps: [String]
    /// Empty for an entity that is not deleted.
    let deleted: [String]

    func makeBindings() throws -> PostgresBindings {
      var bindings = PostgresBindings(capacity: 8)
      bindings.append(Int64(ids.count))
      bindings.append(latest)
      bindings.append(user)
      for column in [kinds, ids, fields, stamps, deleted] { bindings.append(column) }
      return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode(Int64.self) }
  }

  /// ``PostgresConnection/markDays(_:of:user:status:amount:note:keepingNotes:)``: the user
  /// locked and the days marked by `tally_mark_days` (PostgresMigrations' `v6`).
  struct MarkDays: PostgresPreparedStatement {
    static let name = "tally_mark_days"
    static let sql = "SELECT \(markColumns) FROM tally_mark_days($1, $2, $3, $4, $5, $6, $7, $8) AS m"
    static let bindingDataTypes: [PostgresDataType] = [
      .uuid, .uuid, .text, .text, .int8, .bool, .textArray, .textArray,
    ]
    let habit: UUID
    let user: UUID
    let status: String
    let note: String?
    let amount: Int64?
    let keepingNotes: Bool
    let days: [String]
    /// The feed's id of each of `days`' entries, in the same order.
    let ids: [String]

    func makeBindings() throws -> PostgresBindings {
      var bindings = PostgresBindings(capacity: 8)
      bindings.append(habit)
      bindings.append(user)
      bindings.append(status)
      bindings.append(note)
      bindings.append(amount)
      bindings.append(keepingNotes)
      bindings.append(days)
      bindings.append(ids)
      return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> PostgresRandomAccessRow { row.makeRandomAccess() }
  }
}

extension PostgresKeptStatements.OfUser {
  static var bindingDataTypes: [PostgresDataType] { [.uuid] }

  func makeBindings() throws -> PostgresBindings {
    var bindings = PostgresBindings(capacity: 1)
    bindings.append(user)
    return bindings
  }
}

extension PostgresConnection {
  /// Every row `statement` answers, its statement prepared on this connection the first time.
  func kept<Statement: PostgresPreparedStatement>(_ statement: Statement) async throws -> [Statement.Row] {
    try checkOpen()
    var result: [Statement.Row] = []
    for try await row in try await execute(statement, logger: PostgresAppDatabase.quiet) { result.append(row) }
    return result
  }
}
