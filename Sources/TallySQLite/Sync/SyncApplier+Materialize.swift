import Foundation
import GRDB
import TallyCore
import TallyStore
import TallySync

/// The tables the rest of Tally reads, written from an entity's merged state.
extension SyncApplier {
  mutating func materialize(_ id: SyncID, _ key: SyncKey, _ state: SyncEntity, replacing before: SyncEntity?)
    throws
  {
    switch id {
    case .settings:
      guard state.isComplete(.settings) else { return }
      let settings = try SyncFields.decode(UserSettings.self, state.fields).validated()
      guard let record = try UserRecord.fetchOne(db, key: user.storeText) else { return }
      var updated = try record.user()
      updated.settings = settings
      try UserRecord(updated).update(db)
    case .habit(let habitID):
      try materializeHabit(habitID, key, state)
    case .entry:
      // Written with their batch (`SyncEntryBatch`), never one by one.
      break
    case .journal(let day):
      try materializeJournal(day, state, replacing: before)
    case .chat(let messageID):
      if state.deleted != nil {
        _ = try ChatMessageRecord.filter(key: messageID.storeText).filter(sql: "user_id = ?", arguments: [user.storeText]).deleteAll(db)
      } else if state.isComplete(.chat) {
        let message = try SyncFields.decode(
          ChatMessage.self, state.fields, adding: ["id": .string(messageID.storeText)])
        try ChatMessageRecord(message, user: user).save(db)
      }
    case .show(let showID):
      try materializeShow(showID, key, state)
    case .episode(let show, let season, let number):
      guard try ShowRecord.filter(key: show.storeText).filter(sql: "user_id = ?", arguments: [user.storeText])
        .fetchCount(db) == 1, state.isComplete(.episode)
      else { return }
      let episode = try SyncFields.decode(
        Episode.self, state.fields,
        adding: ["showID": .string(show.storeText), "season": .int(Int64(season)), "number": .int(Int64(number))])
      try EpisodeRecord(episode).save(db)
    case .price(let country, let providerID):
      guard state.isComplete(.price) else { return }
      if let price = try SyncFields.price(state.fields, country: country, providerID: providerID) {
        try PriceRecord(price, user: user).save(db)
      } else {
        _ = try PriceRecord.deleteOne(
          db, key: ["user_id": user.storeText, "country": country, "provider_id": providerID])
      }
    }
  }

  private mutating func materializeHabit(_ habitID: UUID, _ key: SyncKey, _ state: SyncEntity) throws {
    if state.deleted != nil {
      // Entries and reminder deliveries go with it: ON DELETE CASCADE.
      _ = try HabitRecord.filter(key: habitID.storeText).filter(sql: "user_id = ?", arguments: [user.storeText])
        .deleteAll(db)
      try db.removeSyncChildren(of: key, kind: .entry, user: user)
      return
    }
    guard state.isComplete(.habit) else { return }
    var habit = try SyncFields.decode(Habit.self, state.fields, adding: ["id": .string(habitID.storeText)])
      .validated()
    let existed = try HabitRecord.exists(db, key: habitID.storeText)
    habit.name = try resolveNameClash(habit, key, state)
    try HabitRecord(habit, user: user).write(db, inserting: !existed)
    if !existed {
      // Its entries waited in the feed; each marked day moves to its row, keeping its place.
      var days = SyncEntryRows()
      var moved: [String] = []
      for (child, entity, position) in try db.syncChildren(of: key, kind: .entry, user: user) {
        guard case .entry = try SyncID(child), let stamp = entity.stamps.values.max() else { continue }
        let day = try SyncFields.entry(entity.fields)
        guard day.status != nil else { continue }
        days.add(child.id, day, stamp: stamp, position: position)
        moved.append(child.id)
      }
      try db.removeSyncEntries(moved, user: user)
      try days.write(db, user: user)
    }
  }

  /// The text a merge replaces is kept as a revision of the day (SPEC 11).
  private func materializeJournal(_ day: Day, _ state: SyncEntity, replacing before: SyncEntity?) throws {
    let text = try SyncFields.journalText(state.fields, day: day)
    let key: [String: any DatabaseValueConvertible] = ["user_id": user.storeText, "day": day.description]
    if let old = try JournalEntryRecord.fetchOne(db, key: key), old.text != text,
      let replacedStamp = before?.stamps["text"], let winner = state.stamps["text"]
    {
      try db.keepJournalRevision(user: user, day: day, text: old.text, stamp: replacedStamp, replacedBy: winner)
    }
    if let text {
      try JournalEntryRecord(try JournalEntry(day: day, text: text), user: user).save(db)
    } else {
      _ = try JournalEntryRecord.deleteOne(db, key: key)
    }
  }

  private mutating func materializeShow(_ showID: UUID, _ key: SyncKey, _ state: SyncEntity) throws {
    if state.deleted != nil {
      // Providers and episodes go with it: ON DELETE CASCADE.
      _ = try ShowRecord.filter(key: showID.storeText).filter(sql: "user_id = ?", arguments: [user.storeText])
        .deleteAll(db)
      try db.removeSyncChildren(of: key, kind: .episode, user: user)
      return
    }
    guard state.isComplete(.show) else { return }
    var show = try SyncFields.decode(Show.self, state.fields, adding: ["id": .string(showID.storeText)])
    try ShowRules.checkProviders(show)
    show = try resolveTMDBClash(show, key, state)
    let existed = try ShowRecord.exists(db, key: showID.storeText)
    try ShowRecord(show, user: user).save(db)
    _ = try ShowProviderRecord.filter(ShowProviderRecord.Columns.showID == showID.storeText).deleteAll(db)
    for provider in ShowProviderRecord.records(show) {
      try provider.insert(db)
    }
    if !existed {
      for (child, entity, _) in try db.syncChildren(of: key, kind: .episode, user: user) {
        let id = try SyncID(child)
        try materialize(id, child, entity, replacing: nil)
      }
    }
  }
}

extension Database {
  func keepJournalRevision(user: UUID, day: Day, text: String, stamp: HybridStamp, replacedBy: HybridStamp)
    throws
  {
    try execute(
      sql: "INSERT INTO journal_revisions (user_id, day, text, stamp, replaced_by) VALUES (?, ?, ?, ?, ?)",
      arguments: [user.storeText, day.description, text, stamp.text, replacedBy.text])
  }
}
