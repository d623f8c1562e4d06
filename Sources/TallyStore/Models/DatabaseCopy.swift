import Foundation

/// Copying a whole database from one engine to another (`tally storage copy`): the tables
/// both engines keep under the same names and columns, parents before children, and a cell as
/// it travels between them.
public enum DatabaseCopy {
  /// Every table a copy carries, in an order that satisfies the foreign keys. Schema
  /// bookkeeping (migrations) is each engine's own and is not copied, and so is SQLite's
  /// `habit_months` (and its pause), which its triggers make from the entries copied in. Sign-in attempts are
  /// copied: a move is a restart onto another database, and a guesser locked out before it
  /// stays locked out after.
  public static let tables = [
    "users", "user_credentials", "provider_identities", "invitations", "habits", "habit_entries", "journal_entries", "chat_messages", "shows",
    "show_providers", "episodes", "prices", "pauses", "api_tokens", "sessions", "sign_in_attempts", "pending_sign_ins",
    "reminder_deliveries", "feed_tokens", "webhooks", "vapid_keys", "push_subscriptions", "push_deliveries",
    "sync_meta", "sync_heads", "sync_entities", "sync_remotes", "sync_outbox", "journal_revisions",
  ]

  /// Rows read and written at a time.
  public static let batchSize = 5_000

  /// One column of one row: SQLite's storage classes, which every other engine can take.
  public enum Cell: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
  }

  /// Some rows of one table, `columns` naming each row's cells.
  public struct Batch: Sendable {
    public var columns: [String]
    public var rows: [[Cell]]

    public init(columns: [String], rows: [[Cell]]) {
      self.columns = columns
      self.rows = rows
    }
  }
}
