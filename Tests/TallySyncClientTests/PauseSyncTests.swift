import Foundation
import PropertyBased
import TallyCore
import TallySQLite
import TallyStore
import TallySync
import TallySyncClient
import Testing

/// Weekday schedules and pauses travel through sync (SPEC 11): a pause is a record of its own,
/// merged field by field; pauses two devices add offline are both kept, even when they overlap.
@Suite struct PauseSyncTests {
  /// The phone pauses "Read" for a week while offline; the laptop, also offline, marks a day
  /// of that week done. Whichever syncs first, every device ends with the pause and the day,
  /// and the day counts as completed in the streak.
  @Test(arguments: ServerBackend.all, [false, true])
  func aPauseAndAMarkOfAPausedDayMeetInEitherOrder(_ backend: ServerBackend, phoneFirst: Bool) async throws {
    let server = try await SyncServer.make(backend)
    try await server.running { url in
      let phone = try await Replica.make("phone", url: url, token: server.token)
      let laptop = try await Replica.make("laptop", url: url, token: server.token)
      let read = try await phone.store.createHabit(
        Habit(
          id: UUID(), name: "Read", createdDay: day("2026-03-01"),
          frequency: .weekdays(try WeekdaySet([.monday, .wednesday, .friday]))),
        for: phone.user.id)
      _ = try await phone.sync(url, token: server.token)
      _ = try await laptop.sync(url, token: server.token)
      let pause = try Pause(id: UUID(), habitID: read.id, from: day("2026-03-02"), until: day("2026-03-08"))
      _ = try await phone.store.savePause(pause, for: phone.user.id)
      try await laptop.store.setDay(day("2026-03-04"), of: read.id, to: .done, for: laptop.user.id)
      let order = phoneFirst ? [phone, laptop, phone] : [laptop, phone, laptop]
      for replica in order { _ = try await replica.sync(url, token: server.token) }
      let expected = try await Contents.of(server.store, server.user.id)
      #expect(expected.pauses == [pause])
      #expect(expected.entries[read.id] == [HabitEntry(day: day("2026-03-04"), status: .done)])
      for replica in [phone, laptop] {
        let actual = try await Contents.of(replica.store, replica.user.id)
        #expect(actual == expected, "\(replica.name): \(actual.differences(from: expected))")
        let history = try #require(try await replica.store.histories(for: replica.user.id)[read.id])
        let stats = HabitStatistics(habit: read, history: history, today: day("2026-03-09"), firstWeekday: .monday)
        #expect(stats.currentStreak == 1)
        #expect(stats.completionRate == 1)
      }
    }
  }

  /// Two devices pause the same habit offline over days that overlap: neither is refused on
  /// arrival, and every device reads their union.
  @Test(arguments: ServerBackend.all) func overlappingPausesFromTwoDevicesAreBothKept(_ backend: ServerBackend) async throws {
    try await SyncScenarioTests.withReadOnBoth(backend) { server, url, phone, laptop, read in
      _ = try await phone.store.savePause(
        try Pause(id: UUID(), habitID: read.id, from: day("2026-03-02"), until: day("2026-03-06")), for: phone.user.id)
      _ = try await laptop.store.savePause(
        try Pause(id: UUID(), habitID: read.id, from: day("2026-03-05"), until: day("2026-03-09")), for: laptop.user.id)
      for replica in [phone, laptop, phone] { _ = try await replica.sync(url, token: server.token) }
      let expected = try await Contents.of(server.store, server.user.id)
      #expect(expected.pauses.count == 2)
      for replica in [phone, laptop] {
        #expect(try await Contents.of(replica.store, replica.user.id) == expected)
        let paused = try await replica.store.pausedDays(of: read.id, for: replica.user.id)
        #expect(paused.ranges == [day("2026-03-02")...day("2026-03-09")])
      }
    }
  }

  /// One device ends a vacation while another moves its start: the fields merge one by one,
  /// and a pause deleted on one device stays deleted.
  @Test(arguments: ServerBackend.all) func aPauseMergesFieldByFieldAndADeletionIsFinal(_ backend: ServerBackend) async throws {
    let server = try await SyncServer.make(backend)
    try await server.running { url in
      let phone = try await Replica.make("phone", url: url, token: server.token)
      let laptop = try await Replica.make("laptop", url: url, token: server.token)
      let vacation = try await phone.store.savePause(
        try Pause(id: UUID(), habitID: nil, from: day("2026-03-02"), until: nil), for: phone.user.id)
      _ = try await phone.sync(url, token: server.token)
      _ = try await laptop.sync(url, token: server.token)
      var moved = vacation
      moved.from = day("2026-03-03")
      _ = try await laptop.store.savePause(moved, for: laptop.user.id)
      phone.clock.advance(1)
      _ = try await phone.store.resume(habit: nil, on: day("2026-03-10"), for: phone.user.id)
      for replica in [laptop, phone, laptop] { _ = try await replica.sync(url, token: server.token) }
      let merged = try Pause(id: vacation.id, habitID: nil, from: day("2026-03-03"), until: day("2026-03-09"))
      let everyone: [(any Store, UUID)] = [
        (server.store, server.user.id), (phone.store, phone.user.id), (laptop.store, laptop.user.id),
      ]
      for (store, user) in everyone { #expect(try await store.pauses(for: user) == [merged]) }
      try await laptop.store.deletePause(id: vacation.id, for: laptop.user.id)
      _ = try await phone.store.savePause(
        try Pause(id: vacation.id, habitID: nil, from: day("2026-03-03"), until: day("2026-03-20")), for: phone.user.id)
      for replica in [laptop, phone, laptop] { _ = try await replica.sync(url, token: server.token) }
      for (store, user) in everyone { #expect(try await store.pauses(for: user).isEmpty) }
    }
  }
}
