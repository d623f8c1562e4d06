import Foundation
import TallyCore
import TallyStore
import Testing

/// Weekday schedules and pauses (issue 55), held to the same contract by every store.
@Suite struct PauseContractTests {
  func pause(_ habit: UUID?, _ from: String, _ until: String?) throws -> Pause {
    try Pause(id: UUID(), habitID: habit, from: day(from), until: until.map(day))
  }

  @Test(arguments: StoreFactory.all)
  func weekdaySchedulesAreKept(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let gym = makeHabit("Gym", frequency: .weekdays(try WeekdaySet([.monday, .wednesday, .friday])))
    _ = try await store.createHabit(gym, for: ada.id)
    #expect(try await store.habit(id: gym.id, for: ada.id) == gym)
    var daily = gym
    daily.frequency = .daily
    _ = try await store.updateHabit(daily, for: ada.id)
    #expect(try await store.habit(id: gym.id, for: ada.id).frequency == .daily)
  }

  @Test(arguments: StoreFactory.all)
  func pausesAreSavedListedResumedAndDeleted(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let read = try await addHabit(store, for: ada)
    let vacation = try await store.savePause(try pause(nil, "2026-12-20", nil), for: ada.id)
    let own = try await store.savePause(try pause(read.id, "2026-11-01", "2026-11-03"), for: ada.id)
    #expect(try await store.pauses(for: ada.id) == [own, vacation])
    let (ended, deleted) = try await store.resume(habit: nil, on: day("2026-12-27"), for: ada.id)
    #expect(deleted.isEmpty)
    #expect(ended.map(\.until) == [day("2026-12-26")])
    #expect(try await store.pauses(for: ada.id).last?.until == day("2026-12-26"))
    try await store.deletePause(id: own.id, for: ada.id)
    #expect(try await store.pauses(for: ada.id).map(\.id) == [vacation.id])
    await #expect(throws: StoreError.notFound(.pause(own.id))) { try await store.deletePause(id: own.id, for: ada.id) }
  }

  @Test(arguments: StoreFactory.all)
  func overlappingPausesOfOneHabitAreRefusedAndNothingIsStored(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let read = try await addHabit(store, for: ada)
    let first = try await store.savePause(try pause(read.id, "2026-11-01", "2026-11-10"), for: ada.id)
    await #expect(throws: StoreError.self) {
      try await store.savePause(try pause(read.id, "2026-11-10", nil), for: ada.id)
    }
    // Another habit's pause and a pause of all habits may cover the same days.
    _ = try await store.savePause(try pause(nil, "2026-11-05", "2026-11-06"), for: ada.id)
    #expect(try await store.pauses(for: ada.id).count == 2)
    var longer = first
    longer.until = day("2026-11-12")
    #expect(try await store.savePause(longer, for: ada.id).until == day("2026-11-12"))
  }

  @Test(arguments: StoreFactory.all)
  func aPauseNamesTheUsersOwnHabit(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let bob = try await makeUser(store, "bob")
    let bobs = try await addHabit(store, for: bob)
    await #expect(throws: StoreError.notFound(.habit(bobs.id))) {
      try await store.savePause(try pause(bobs.id, "2026-11-01", nil), for: ada.id)
    }
    let held = try await store.savePause(try pause(bobs.id, "2026-11-01", nil), for: bob.id)
    await #expect(throws: StoreError.self) { try await store.savePause(held, for: ada.id) }
    #expect(try await store.pauses(for: ada.id).isEmpty)
    try await store.deleteHabit(id: bobs.id, for: bob.id)
    #expect(try await store.pauses(for: bob.id).isEmpty)
  }

  @Test(arguments: StoreFactory.all)
  func historiesCarryEachHabitsPauses(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let read = try await addHabit(store, for: ada)
    let walk = try await addHabit(store, for: ada, "Walk")
    _ = try await store.setDay(day("2026-11-02"), of: read.id, to: .done, for: ada.id)
    _ = try await store.savePause(try pause(nil, "2026-11-04", "2026-11-05"), for: ada.id)
    _ = try await store.savePause(try pause(read.id, "2026-11-07", nil), for: ada.id)
    let histories = try await store.histories(for: ada.id)
    #expect(histories[read.id]?.paused.ranges == [day("2026-11-04")...day("2026-11-05"), day("2026-11-07")...Pause.latest])
    #expect(histories[walk.id]?.paused.ranges == [day("2026-11-04")...day("2026-11-05")])
  }

  @Test(arguments: StoreFactory.all)
  func snapshotsCarryPausesIntoAnotherAccount(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let read = try await addHabit(store, for: ada)
    _ = try await store.savePause(try pause(read.id, "2026-11-04", "2026-11-05"), for: ada.id)
    _ = try await store.savePause(try pause(nil, "2026-12-20", nil), for: ada.id)
    let snapshot = try await store.snapshot(of: ada.id)
    #expect(snapshot.pauses.count == 2)
    let copy = try await store.restore(snapshot, into: .newUser(id: UUID(), name: "copy"))
    let restored = try await store.snapshot(of: copy.id)
    let newHabit = try #require(restored.habits.first?.habit.id)
    #expect(newHabit != read.id)
    #expect(restored.pauses.map(\.habitID).sorted { ($0?.uuidString ?? "") < ($1?.uuidString ?? "") } == [nil, newHabit])
    #expect(Set(restored.pauses.map(\.from)) == [day("2026-11-04"), day("2026-12-20")])
    #expect(Set(restored.pauses.map(\.id)).isDisjoint(with: snapshot.pauses.map(\.id)))
  }
}
