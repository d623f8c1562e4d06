import Foundation
import GRDB
import TallyCore
import TallyStore
import TallySync

/// The tables the rest of Tally reads, as ``SyncMerge`` writes them.
extension SQLiteSyncStorage {
  func saveSettings(_ settings: UserSettings) throws {
    guard let record = try UserRecord.fetchOne(db, key: user.storeText) else { return }
    var updated = try record.user()
    updated.settings = settings
    try UserRecord(updated).update(db)
  }

  func habitExists(_ id: UUID) throws -> Bool { try HabitRecord.exists(db, key: id.storeText) }

  func writeHabit(_ habit: Habit, inserting: Bool) throws {
    try HabitRecord(habit, user: user).write(db, inserting: inserting)
  }

  /// Its days and reminder deliveries go with it: ON DELETE CASCADE.
  func deleteHabit(_ id: UUID) throws {
    _ = try HabitRecord.filter(key: id.storeText).filter(sql: "user_id = ?", arguments: [user.storeText]).deleteAll(db)
  }

  private func journalKey(_ day: Day) -> [String: any DatabaseValueConvertible] {
    ["user_id": user.storeText, "day": day.description]
  }

  func journalText(_ day: Day) throws -> String? {
    try JournalEntryRecord.fetchOne(db, key: journalKey(day))?.text
  }

  func saveJournal(_ entry: JournalEntry) throws { try JournalEntryRecord(entry, user: user).save(db) }

  func deleteJournal(_ day: Day) throws { _ = try JournalEntryRecord.deleteOne(db, key: journalKey(day)) }

  func keepJournalRevision(_ day: Day, text: String, stamp: HybridStamp, replacedBy: HybridStamp) throws {
    try db.execute(
      sql: "INSERT INTO journal_revisions (user_id, day, text, stamp, replaced_by) VALUES (?, ?, ?, ?, ?)",
      arguments: [user.storeText, day.description, text, stamp.text, replacedBy.text])
  }

  func saveChat(_ message: ChatMessage) throws { try ChatMessageRecord(message, user: user).save(db) }

  func deleteChat(_ id: UUID) throws {
    _ = try ChatMessageRecord.filter(key: id.storeText).filter(sql: "user_id = ?", arguments: [user.storeText])
      .deleteAll(db)
  }

  func showExists(_ id: UUID) throws -> Bool { try ShowRecord.exists(db, key: id.storeText) }

  func userHasShow(_ id: UUID) throws -> Bool {
    try ShowRecord.filter(key: id.storeText).filter(sql: "user_id = ?", arguments: [user.storeText]).fetchCount(db) == 1
  }

  func saveShow(_ show: Show) throws {
    try ShowRecord(show, user: user).save(db)
    _ = try ShowProviderRecord.filter(ShowProviderRecord.Columns.showID == show.id.storeText).deleteAll(db)
    for provider in ShowProviderRecord.records(show) {
      try provider.insert(db)
    }
  }

  /// Its providers and episodes go with it: ON DELETE CASCADE.
  func deleteShow(_ id: UUID) throws {
    _ = try ShowRecord.filter(key: id.storeText).filter(sql: "user_id = ?", arguments: [user.storeText]).deleteAll(db)
  }

  func saveEpisode(_ episode: Episode) throws { try EpisodeRecord(episode).save(db) }

  func savePrice(_ price: Price) throws { try PriceRecord(price, user: user).save(db) }

  func deletePrice(country: String, providerID: Int) throws {
    _ = try PriceRecord.deleteOne(db, key: ["user_id": user.storeText, "country": country, "provider_id": providerID])
  }

  func userHasHabit(_ id: UUID) throws -> Bool {
    try HabitRecord.filter(key: id.storeText).filter(sql: "user_id = ?", arguments: [user.storeText]).fetchCount(db) == 1
  }

  func savePause(_ pause: Pause) throws { try db.writePause(pause, user: user) }

  func deletePause(_ id: UUID) throws {
    try db.execute(sql: "DELETE FROM pauses WHERE id = ? AND user_id = ?", arguments: [id.storeText, user.storeText])
  }
}
