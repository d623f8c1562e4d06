import Foundation
import TallyCore
import TallyStore
import TallySync
import Testing

/// Each user's revision (the head of their change feed) is what kept pages and live streams
/// rely on: it moves with every write of that user's data, on every engine, and with nothing
/// else.
@Suite struct RevisionContractTests {
  @Test(arguments: StoreFactory.all)
  func everyKindOfWriteMovesItsUsersRevisionAndNoOneElses(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let bob = try await makeUser(store, "bob")
    let bobs = try await store.revision(for: bob.id)
    let habit = try await store.createHabit(makeHabit(), for: ada.id)
    var renamed = habit
    renamed.name = "Read more"
    let writes: [(String, @Sendable () async throws -> Void)] = [
      ("a day", { try await store.setDay(day("2026-03-01"), of: habit.id, to: .done, for: ada.id) }),
      ("a journal day", { try await store.setJournalEntry(JournalEntry(day: day("2026-03-01"), text: "hi"), for: ada.id) }),
      ("a rename", { [renamed] in _ = try await store.updateHabit(renamed, for: ada.id) }),
      ("the settings", { _ = try await store.updateSettings(UserSettings(timeZone: "Asia/Kolkata"), for: ada.id) }),
      ("a deletion", { try await store.deleteHabit(id: habit.id, for: ada.id) }),
    ]
    for (name, write) in writes {
      let before = try await store.revision(for: ada.id)
      try await write()
      let after = try await store.revision(for: ada.id)
      #expect(after != before, "\(name) left the revision where it was")
      #expect(try await store.heardHead(for: ada.id) == after.head, "after \(name)")
      #expect(try await databaseHead(store, ada.id) == after.head, "after \(name), memory and database differ")
    }
    #expect(try await store.revision(for: bob.id) == bobs)
  }

  /// A write the store refuses is rolled back, and so is the head it took: memory never runs
  /// ahead of the database, where a later write would reach the same head with other data.
  @Test(arguments: StoreFactory.all)
  func aRefusedWriteLeavesTheRevision(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    _ = try await store.createHabit(makeHabit("Read"), for: ada.id)
    let before = try await store.revision(for: ada.id)
    await #expect(throws: StoreError.self) { _ = try await store.createHabit(makeHabit("Read"), for: ada.id) }
    #expect(try await store.revision(for: ada.id) == before)
    #expect(try await store.heardHead(for: ada.id) == before.head)
    #expect(try await databaseHead(store, ada.id) == before.head)
  }

  /// A waiting stream hears each commit of its user's, and only after it committed.
  @Test(.timeLimit(.minutes(1)), arguments: StoreFactory.all)
  func aSubscriptionHearsItsUsersCommits(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let bob = try await makeUser(store, "bob")
    let subscription = try #require(store.feedHeads.subscribe(ada.id, limits: .init(perUser: 2, total: 10)))
    defer { subscription.stop() }
    #expect(store.feedHeads.subscribe(ada.id, limits: .init(perUser: 1, total: 10)) == nil)
    var heard = subscription.moves.makeAsyncIterator()
    _ = try await store.createHabit(makeHabit("Bob's"), for: bob.id)
    let habit = try await store.createHabit(makeHabit(), for: ada.id)
    try await store.setDay(day("2026-03-02"), of: habit.id, to: .done, for: ada.id)
    let head = try await store.revision(for: ada.id).head
    var last: Int64 = 0
    while let moved = await heard.next() {
      if let moved { last = moved }
      if last >= head { break }
    }
    #expect(last == head)
  }
}

/// The head as the database holds it, read past every memory.
private func databaseHead(_ store: any Store, _ user: UUID) async throws -> Int64 {
  let feed = try #require(store as? any SyncRepository)
  return try await feed.syncHead(for: user)
}
