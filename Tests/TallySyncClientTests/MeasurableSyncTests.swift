import Foundation
import TallyCore
import TallySQLite
import TallyStore
import TallySync
import TallySyncClient
import Testing

/// Measurable habits, their amounts and the new schedules travel through sync; a client that
/// predates them still pushes.
@Suite struct MeasurableSyncTests {
  typealias R = SyncRefusalTests

  @Test(arguments: ServerBackend.all) func aMeasurableHabitAndItsAmountsReachTheOtherDevice(_ backend: ServerBackend) async throws {
    let server = try await SyncServer.make(backend)
    try await server.running { url in
      let phone = try await Replica.make("phone", url: url, token: server.token)
      let laptop = try await Replica.make("laptop", url: url, token: server.token)
      let run = try await phone.store.createHabit(
        Habit(
          id: UUID(), name: "Run", createdDay: day("2026-03-01"), frequency: .timesInDays(times: 1, days: 3),
          measure: Measure(unit: "km", target: Amount(thousandths: 5_500), direction: .atMost),
          description: "Flat route"),
        for: phone.user.id)
      try await phone.store.setDay(day("2026-03-06"), of: run.id, to: .amount(try Amount(parsing: "4.25")), note: "wind", for: phone.user.id)
      try await phone.store.setDay(day("2026-03-07"), of: run.id, to: .amount(Amount(6)), for: phone.user.id)
      _ = try await phone.sync(url, token: server.token)
      _ = try await laptop.sync(url, token: server.token)
      #expect(try await laptop.store.habit(id: run.id, for: laptop.user.id) == run)
      let expected = try await phone.store.entries(of: run.id, for: phone.user.id)
      #expect(expected.compactMap(\.amount) == [try Amount(parsing: "4.25"), Amount(6)])
      #expect(try await laptop.store.entries(of: run.id, for: laptop.user.id) == expected)
      #expect(try await server.store.entries(of: run.id, for: server.user.id) == expected)
    }
  }

  /// A client from before issue 15 sends entries as status and note only, and habits without
  /// measure or description: taken, a done day of a measurable habit counting as its target.
  @Test(arguments: ServerBackend.all) func anOlderClientsPushesStillApply(_ backend: ServerBackend) async throws {
    let server = try await SyncServer.make(backend)
    let run = try await server.store.createHabit(
      Habit(
        id: UUID(), name: "Run", createdDay: day("2026-03-01"),
        measure: Measure(unit: "km", target: Amount(5))),
      for: server.user.id)
    let walk = UUID()
    try await server.running { url in
      var oldHabit = try SyncFields.encode(
        Habit(id: walk, name: "Walk", createdDay: day("2026-03-01")), kind: .habit)
      oldHabit["measure"] = nil
      oldHabit["description"] = nil
      let changes = [
        SyncChange(kind: .habit, id: walk.storeText, stamp: R.stamp(startOfTests), fields: oldHabit),
        SyncChange(
          kind: .entry, id: SyncID.entry(walk, day("2026-03-07")), stamp: R.stamp(startOfTests),
          fields: ["status": .string("done"), "note": .null]),
        SyncChange(
          kind: .entry, id: SyncID.entry(run.id, day("2026-03-07")), stamp: R.stamp(startOfTests),
          fields: ["status": .string("done"), "note": .string("old phone")]),
      ]
      let answer = try await HTTPSyncTransport(baseURL: url, token: server.token)
        .push(SyncPushRequest(device: R.device, changes: changes))
      #expect(answer.applied == 3)
      #expect(try await server.store.habit(id: walk, for: server.user.id).kind == .yesNo)
      #expect(
        try await server.store.entries(of: walk, for: server.user.id)
          == [HabitEntry(day: day("2026-03-07"), status: .done)])
      #expect(
        try await server.store.entries(of: run.id, for: server.user.id)
          == [HabitEntry(day: day("2026-03-07"), status: .done, note: "old phone", amount: Amount(5))])
    }
  }

  @Test(arguments: ServerBackend.all) func aNegativeAmountIsRefusedNamingTheField(_ backend: ServerBackend) async throws {
    let server = try await SyncServer.make(backend)
    let run = try await server.store.createHabit(
      Habit(id: UUID(), name: "Run", createdDay: day("2026-03-01"), measure: Measure(unit: "km", target: Amount(5))),
      for: server.user.id)
    try await server.running { url in
      let change = SyncChange(
        kind: .entry, id: SyncID.entry(run.id, day("2026-03-07")), stamp: R.stamp(startOfTests),
        fields: ["status": .string("done"), "note": .null, "amount": .double(-1.5)])
      let refused = try await R.refusal(server, url, [change])
      #expect(refused?.status == 422)
      #expect(refused?.message.contains("entry.amount") == true)
    }
  }

  /// Offline, the phone makes Read measurable (it has no days marked) while the laptop marks
  /// one: the merged habit is measurable everywhere, and the marked day counts as the target.
  @Test(arguments: ServerBackend.all) func aKindChangedWhileAnotherDeviceMarkedDaysConvertsTheDays(
    _ backend: ServerBackend
  ) async throws {
    try await SyncScenarioTests.withReadOnBoth(backend) { server, url, phone, laptop, read in
      var measured = read
      measured.measure = try Measure(unit: "pages", target: Amount(20))
      _ = try await phone.store.updateHabit(measured, for: phone.user.id)
      try await laptop.store.setDay(day("2026-03-07"), of: read.id, to: .done, for: laptop.user.id)
      for replica in [laptop, phone, laptop] { _ = try await replica.sync(url, token: server.token) }
      let expected = [HabitEntry(day: day("2026-03-07"), status: .done, amount: Amount(20))]
      for (store, user) in [(phone.store, phone.user.id), (laptop.store, laptop.user.id), (server.store, server.user.id)] {
        #expect(try await store.habit(id: read.id, for: user).kind == .measurable)
        #expect(try await store.entries(of: read.id, for: user) == expected)
      }
    }
  }
}
