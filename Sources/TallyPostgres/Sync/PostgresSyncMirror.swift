import Foundation
import PostgresNIO
import TallyCore
import TallyStore

/// Records every entity a user's tables hold into the change feed, through a recorder: only
/// what differs from the feed gets its stamp. Used where rows arrive in bulk (a restore).
enum PostgresSyncMirror {
  static func record(_ connection: PostgresConnection, user: UUID, with sync: PostgresSyncRecorder) async throws {
    guard let row = try await connection.rows("SELECT * FROM users WHERE id = \(user)").first else { return }
    try await sync.settings(try PostgresRows.user(row).settings)
    let entries = try await connection.entries(in: Day.allTime, user: user)
    for habit in try await connection.habits(of: user, includingArchived: true) {
      try await sync.habit(habit)
      try await sync.entries(habit.id, entries[habit.id] ?? [])
    }
    for entry in try await connection.journalEntries(in: Day.allTime, user: user) {
      try await sync.journal(entry.day, text: entry.text)
    }
    for message in try await connection.chatMessages(in: Day.allTime, user: user) {
      try await sync.chat(message)
    }
    let episodes = try await connection.episodes(of: user)
    for show in try await connection.shows(of: user) {
      try await sync.show(show)
      for episode in episodes where episode.showID == show.id { try await sync.episode(episode) }
    }
    for price in try await connection.priceTable(of: user).prices {
      try await sync.price(country: price.country, providerID: price.providerID, price)
    }
  }
}
