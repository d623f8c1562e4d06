import Foundation
import TallyCore
@testable import TallyDelivery
import TallyHTTP
import TallyPostgres
import TallyPostgresTesting
import TallyServer
import TallyServerTesting
import TallyStore
import Testing

/// Two servers on one PostgreSQL database each run a reminder sender: a reminder due once
/// reaches its webhook once, whichever instance's claim wins.
extension ReminderSenderTests {
  @Test(.enabled(if: PostgresTesting.url != nil, Comment(rawValue: PostgresTesting.skipped)))
  func twoInstancesSendADueReminderOnce() async throws {
    let location = try PostgresTesting.freshLocation()
    let first = PostgresStore(try await PostgresTesting.open(location, connections: 3))
    let second = PostgresStore(try await PostgresTesting.open(location, connections: 3))
    try await Receiver.listening { base, receiver in
      let f = try await fixture(base, now: "2026-03-09T12:00:10Z", store: first)
      let other = Fixture(store: second, user: f.user, walk: f.walk, clock: f.clock)
      await withTaskGroup(of: Void.self) { group in
        for round in 0..<6 {
          group.addTask { await (round % 2 == 0 ? f : other).sender().tick() }
        }
      }
      #expect(receiver.requests.count == 1)
      #expect(try await other.state("2026-03-09", "08:00") == .sent)
    }
  }
}
