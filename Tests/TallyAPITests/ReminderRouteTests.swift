import Foundation
import HTTPTypes
import HummingbirdTesting
import TallyCore
import TallyHTTP
import TallyServer
import TallyServerTesting
import TallyStore
import Testing

@Suite struct ReminderRouteTests {
  /// A habit reminding at 14:00 UTC; "now" is 12:00 on 2026-03-08.
  private func addHabit(to server: TestServer, user: UUID, name: String = "Run") async throws -> Habit {
    try await server.store.createHabit(
      try Habit(
        id: UUID(), name: name, createdDay: Day(year: 2026, month: 1, day: 1)!,
        reminder: .single(try WallTime(hour: 14))),
      for: user)
  }

  @Test func remindersFireAfterNowOnDaysTheHabitIsNotDone() async throws {
    let server = try TestServer()
    try await server.test { client in
      let owner = try await client.setUpOwner()
      let user = try await client.userID(owner)
      let habit = try await addHabit(to: server, user: user)

      let two = try await client.send(.get, "/api/v1/reminders?days=2", headers: owner)
      #expect(two.status == .ok)
      two.expectSchema(arrayOf: "ReminderOccurrence")
      #expect(two.array.map { $0["instant"] as? String } == ["2026-03-08T14:00:00.000Z", "2026-03-09T14:00:00.000Z"])
      #expect(two.array.first?["key"] as? String == "\(habit.id.storeText)/2026-03-08/14:00")
      #expect(two.array.first?["habitName"] as? String == "Run")
      #expect(two.array.first?["time"] as? String == "14:00")

      try await server.store.setDay(Day(year: 2026, month: 3, day: 8)!, of: habit.id, to: .done, for: user)
      let done = try await client.send(.get, "/api/v1/reminders?days=2", headers: owner)
      #expect(done.array.map { $0["day"] as? String } == ["2026-03-09"], "a day already done is not reminded")

      let week = try await client.send(.get, "/api/v1/reminders", headers: owner)
      #expect(week.array.count == 6, "seven days by default, today done")
    }
  }

  @Test(arguments: ["days=0", "days=367", "days=week", "days=1.5"])
  func aBadLookAheadIsAFourHundred(query: String) async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let response = try await client.send(.get, "/api/v1/reminders?\(query)", headers: owner)
      #expect(response.status == .badRequest)
      #expect(response.object["field"] as? String == "days")
      #expect(response.detail.hasPrefix("The query parameter 'days' must be a whole number from 1 to 366"))
    }
  }

  @Test func signedOutIsRefusedAndAnotherUserHasNone() async throws {
    let server = try TestServer()
    try await server.test { client in
      let owner = try await client.setUpOwner()
      _ = try await addHabit(to: server, user: try await client.userID(owner))
      #expect(try await client.send(.get, "/api/v1/reminders").status == .unauthorized)
      let bob = try await client.memberSession(owner: owner)
      let bobs = try await client.send(.get, "/api/v1/reminders", headers: bob)
      #expect(bobs.status == .ok)
      #expect(bobs.text == "[]")
    }
  }
}
