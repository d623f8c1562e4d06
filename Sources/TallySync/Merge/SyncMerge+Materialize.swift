import Foundation
import TallyCore
import TallyStore

/// The tables the rest of Tally reads, written from an entity's merged state.
extension SyncMerge {
  mutating func materialize(_ id: SyncID, _ key: SyncKey, _ state: SyncEntity, replacing before: SyncEntity?)
    throws
  {
    if state.deleted != nil {
      // A deleted parent's tombstone stands for its children.
      for child in SyncRecording.children(of: key.kind) { try storage.removeChildren(of: key, kind: child) }
    }
    switch id {
    case .settings:
      guard state.isComplete(.settings) else { return }
      try storage.saveSettings(try SyncFields.decode(UserSettings.self, state.fields).validated())
    case .habit(let habitID):
      if state.deleted != nil { try storage.deleteHabit(habitID) } else { try materializeHabit(habitID, key, state) }
    case .entry:
      // Written with their batch, never one by one.
      break
    case .journal(let day):
      try materializeJournal(day, state, replacing: before)
    case .chat(let messageID):
      if state.deleted != nil {
        try storage.deleteChat(messageID)
      } else if state.isComplete(.chat) {
        try storage.saveChat(
          try SyncFields.decode(ChatMessage.self, state.fields, adding: ["id": .string(messageID.storeText)]))
      }
    case .show(let showID):
      if state.deleted != nil { try storage.deleteShow(showID) } else { try materializeShow(showID, key, state) }
    case .episode(let show, let season, let number):
      guard try storage.userHasShow(show), state.isComplete(.episode) else { return }
      let episode = try SyncFields.decode(
        Episode.self, state.fields,
        adding: ["showID": .string(show.storeText), "season": .int(Int64(season)), "number": .int(Int64(number))])
      try storage.saveEpisode(episode)
    case .pause(let pauseID):
      if state.deleted != nil {
        try storage.deletePause(pauseID)
      } else if state.isComplete(.pause) {
        // Merged field by field, a pause can end before it starts (one device moved its start
        // on, another resumed it earlier): it then covers no day, and is no row anywhere.
        let pause = try SyncFields.pause(state.fields, id: pauseID)
        if let pause, try pause.habitID.map(storage.userHasHabit) ?? true {
          try storage.savePause(pause)
        } else {
          try storage.deletePause(pauseID)
        }
      }
    case .price(let country, let providerID):
      guard state.isComplete(.price) else { return }
      if let price = try SyncFields.price(state.fields, country: country, providerID: providerID) {
        try storage.savePrice(price)
      } else {
        try storage.deletePrice(country: country, providerID: providerID)
      }
    }
  }

  private mutating func materializeHabit(_ habitID: UUID, _ key: SyncKey, _ state: SyncEntity) throws {
    guard state.isComplete(.habit) else { return }
    var habit = try SyncFields.decode(Habit.self, state.fields, adding: ["id": .string(habitID.storeText)])
      .validated()
    let existed = try storage.habitExists(habitID)
    habit.name = try resolveNameClash(habit, key, state)
    try storage.writeHabit(habit, inserting: !existed)
    guard !existed else { return }
    // Its entries waited in the feed; each takes its day now, keeping its place in the feed.
    var waiting: [SyncWaitingEntry] = []
    for (child, entity, position) in try storage.children(of: key, kind: .entry) {
      guard case .entry = try SyncID(child), let stamp = entity.stamps.values.max() else { continue }
      waiting.append(SyncWaitingEntry(id: child.id, day: try SyncFields.entry(entity.fields), stamp: stamp, position: position))
    }
    try storage.placeWaiting(waiting, of: habitID)
  }

  /// The text a merge replaces is kept as a revision of the day (SPEC 11).
  private func materializeJournal(_ day: Day, _ state: SyncEntity, replacing before: SyncEntity?) throws {
    let text = try SyncFields.journalText(state.fields, day: day)
    if let old = try storage.journalText(day), old != text,
      let replacedStamp = before?.stamps["text"], let winner = state.stamps["text"]
    {
      try storage.keepJournalRevision(day, text: old, stamp: replacedStamp, replacedBy: winner)
    }
    if let text {
      try storage.saveJournal(try JournalEntry(day: day, text: text))
    } else {
      try storage.deleteJournal(day)
    }
  }

  private mutating func materializeShow(_ showID: UUID, _ key: SyncKey, _ state: SyncEntity) throws {
    guard state.isComplete(.show) else { return }
    var show = try SyncFields.decode(Show.self, state.fields, adding: ["id": .string(showID.storeText)])
    try ShowRules.checkProviders(show)
    show = try resolveTMDBClash(show, key, state)
    let existed = try storage.showExists(showID)
    try storage.saveShow(show)
    guard !existed else { return }
    // Its episodes waited in the feed.
    for (child, entity, _) in try storage.children(of: key, kind: .episode) {
      try materialize(try SyncID(child), child, entity, replacing: nil)
    }
  }
}
