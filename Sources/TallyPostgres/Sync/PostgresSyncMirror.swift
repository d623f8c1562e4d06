import Foundation
import PostgresNIO
import TallyCore
import TallyStore
import TallySync

/// PostgreSQL's side of ``SyncMirror``: a user's rows, read, and a habit's days recorded
/// together.
enum PostgresSyncMirror {
  static func record(_ connection: PostgresConnection, user: UUID, with sync: PostgresSyncRecorder) async throws {
    guard let row = try await connection.rows("SELECT * FROM users WHERE id = \(user)").first else { return }
    let rows = UserSnapshot(
      settings: try PostgresRows.user(row).settings,
      habits: try await connection.habits(of: user, includingArchived: true).map(SyncMirror.withoutDays),
      journal: try await connection.journalEntries(in: Day.allTime, user: user),
      chat: try await connection.chatMessages(in: Day.allTime, user: user),
      shows: try await connection.shows(of: user), episodes: try await connection.episodes(of: user),
      prices: try await connection.priceTable(of: user).prices)
    let entries = try await connection.entries(in: Day.allTime, user: user)
    for step in try SyncMirror.steps(rows) {
      switch step {
      case .record(let change): try await sync.record(change)
      case .days(let habit): try await sync.entries(habit, entries[habit] ?? [])
      }
    }
  }
}
