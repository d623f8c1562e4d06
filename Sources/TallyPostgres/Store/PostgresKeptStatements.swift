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
  /// A statement whose one parameter, `$1`, is the user.
  protocol OfUser: PostgresPreparedStatement {
    var user: UUID { get }
  }

  /// The user's feed head: the revision every page and poll checks.
  struct FeedHead: OfUser {
    static let name = "tally_feed_head"
    static let sql = "SELECT position FROM sync_heads WHERE user_id = $1"
    let user: UUID

    func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode(Int64.self) }
  }

  /// ``PostgresConnection/lockSyncHead(_:)``.
  struct LockSyncHead: OfUser {
    static let name = "tally_lock_sync_head"
    // Setting a column to itself takes the row's lock, as FOR UPDATE would, and returns it.
    static let sql = """
      WITH owner AS (SELECT id FROM users WHERE id = $1 FOR NO KEY UPDATE)
      INSERT INTO sync_heads (user_id, position) SELECT id, 0 FROM owner
      ON CONFLICT (user_id) DO UPDATE SET position = sync_heads.position
      RETURNING latest_stamp, (SELECT device_id FROM sync_meta WHERE id = 1) AS device,
        EXISTS (SELECT 1 FROM sync_remotes WHERE user_id = $1) AS replica
      """
    let user: UUID

    func decodeRow(_ row: PostgresRow) throws -> (String?, UUID?, Bool) {
      try row.decode((String?, UUID?, Bool).self)
    }
  }

  /// ``PostgresConnection/writeSyncEntities(_:user:latest:)``: positions taken, the head
  /// announced, the latest stamp kept and the entities written; answers the last position.
  struct WriteSyncEntities: PostgresPreparedStatement {
    static let name = "tally_write_sync_entities"
    static let sql = """
      WITH moved AS (
        UPDATE sync_heads SET position = position + $1, latest_stamp = COALESCE($2, latest_stamp)
        WHERE user_id = $3 RETURNING position),
      announced AS (SELECT position FROM moved, pg_notify($4, $5 || ' ' || position)),
      written AS (
        INSERT INTO sync_entities (user_id, kind, entity_id, fields, stamps, deleted, position)
        SELECT $3, kind, entity_id, fields, stamps, NULLIF(deleted, ''), announced.position - $1 + n
        FROM announced, unnest($6::text[], $7::text[], $8::text[], $9::text[], $10::text[])
          WITH ORDINALITY AS given(kind, entity_id, fields, stamps, deleted, n)
        ON CONFLICT (user_id, kind, entity_id) DO UPDATE SET fields = excluded.fields,
          stamps = excluded.stamps, deleted = excluded.deleted, position = excluded.position)
      SELECT position FROM announced
      """
    static let bindingDataTypes: [PostgresDataType] = [
      .int8, .text, .uuid, .text, .text, .textArray, .textArray, .textArray, .textArray, .textArray,
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
      var bindings = PostgresBindings(capacity: 10)
      bindings.append(Int64(ids.count))
      bindings.append(latest)
      bindings.append(user)
      bindings.append(PostgresFeedAnnouncements.channel)
      bindings.append(user.storeText)
      for column in [kinds, ids, fields, stamps, deleted] { bindings.append(column) }
      return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode(Int64.self) }
  }

  /// ``PostgresConnection/markDays(_:of:user:status:amount:note:keepingNotes:)``.
  struct MarkDays: PostgresPreparedStatement {
    static let name = "tally_mark_days"
    static let sql = """
      WITH habit AS (
        SELECT id, name, icon, color, group_name, created_day, frequency, target_per_week, schedule_times,
          schedule_days, reminder, reminder_start, reminder_end, reminder_every_hours, archived, sort_order,
          kind, unit, target, target_direction, description
        FROM habits WHERE id = $1 AND user_id = $2),
      written AS (
        INSERT INTO habit_entries (habit_id, day, status, note, amount)
        SELECT $1, day, $3, $4, $5 FROM unnest($7::text[]) AS day WHERE EXISTS (SELECT 1 FROM habit)
        ON CONFLICT (habit_id, day) DO UPDATE SET status = excluded.status, amount = excluded.amount,
          note = CASE WHEN $6 THEN habit_entries.note ELSE excluded.note END
        RETURNING day, status, note, amount)
      SELECT habit.*, written.day AS entry_day, written.status AS entry_status, written.note AS entry_note,
        written.amount AS entry_amount, feed.entity_id AS feed_id, feed.fields AS feed_fields,
        feed.stamps AS feed_stamps, feed.deleted AS feed_deleted
      FROM habit JOIN written ON true
      JOIN unnest($7::text[], $8::text[]) AS key(day, id) ON key.day = written.day
      LEFT JOIN sync_entities feed ON feed.user_id = $2 AND feed.kind = 'entry' AND feed.entity_id = key.id
      """
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
    var result: [Statement.Row] = []
    for try await row in try await execute(statement, logger: PostgresAppDatabase.quiet) { result.append(row) }
    return result
  }
}
