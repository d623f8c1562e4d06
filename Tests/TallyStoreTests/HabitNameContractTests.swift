import Foundation
import TallyCore
import TallyStore
import Testing

/// A user's habit names are unique as ``NameKey`` compares them, in every store.
@Suite struct HabitNameContractTests {
  @Test(arguments: StoreFactory.all)
  func aNameDifferingOnlyByCaseIsTaken(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let read = try await store.createHabit(makeHabit("Read"), for: ada.id)
    await #expect(throws: StoreError.conflict("a habit named 'Read' already exists; give the new one another name")) {
      _ = try await store.createHabit(makeHabit("read"), for: ada.id)
    }
    var run = try await store.createHabit(makeHabit("Run", sortOrder: 1), for: ada.id)
    run.name = "READ"
    await #expect(throws: StoreError.conflict("a habit named 'Read' already exists; choose another name")) {
      _ = try await store.updateHabit(run, for: ada.id)
    }
    // Renaming a habit to another spelling of its own name is fine.
    var renamed = read
    renamed.name = "read"
    #expect(try await store.updateHabit(renamed, for: ada.id).name == "read")
    #expect(try await store.habits(for: ada.id, includingArchived: true).map(\.name) == ["read", "Run"])
  }

  @Test(arguments: StoreFactory.all)
  func anotherUserMayUseTheName(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let bob = try await makeUser(store, "bob")
    _ = try await store.createHabit(makeHabit("Read"), for: ada.id)
    _ = try await store.createHabit(makeHabit("Read"), for: bob.id)
  }
}
