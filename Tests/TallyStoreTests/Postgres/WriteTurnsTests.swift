import Foundation
import Synchronization
import Testing

@testable import TallyPostgres

/// One user's writes through an instance wait for each other in the instance, in order, not
/// in PostgreSQL holding connections; other users' go by.
@Suite struct WriteTurnsTests {
  /// A gate a test opens: what waits on it ignores cancellation, as a query on a dropped
  /// connection does.
  final class Gate: Sendable {
    private let state = Mutex<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
      await withCheckedContinuation { continuation in
        let open = state.withLock { state in
          if !state.open { state.waiting.append(continuation) }
          return state.open
        }
        if open { continuation.resume() }
      }
    }

    func open() {
      for continuation in state.withLock({ state in
        state.open = true
        defer { state.waiting = [] }
        return state.waiting
      }) {
        continuation.resume()
      }
    }
  }

  /// What ran, in order.
  final class Ran: Sendable {
    private let items = Mutex<[String]>([])
    func add(_ item: String) { items.withLock { $0.append(item) } }
    var all: [String] { items.withLock { $0 } }
  }

  @Test func oneUsersWritesTakeTurnsInOrderWhileAnotherUsersGoBy() async throws {
    let turns = WriteTurns(width: 1)
    let (ada, bob) = (UUID(), UUID())
    let gate = Gate()
    let ran = Ran()
    let holder = Task { try await turns.run(ada) { await gate.wait() } }
    try await until { turns.inLine(for: ada) == 1 }
    var waiters: [Task<Void, any Error>] = []
    for index in 1...5 {
      waiters.append(Task { try await turns.run(ada) { ran.add("ada \(index)") } })
      try await until { turns.inLine(for: ada) == index + 1 }
    }
    try await turns.run(bob) { ran.add("bob") }
    #expect(ran.all == ["bob"])
    gate.open()
    try await holder.value
    for waiter in waiters { try await waiter.value }
    #expect(ran.all == ["bob", "ada 1", "ada 2", "ada 3", "ada 4", "ada 5"])
    #expect(turns.inLine(for: ada) == 0)
  }

  @Test func aCancelledWaiterLeavesTheLineAndTheNextGoesOn() async throws {
    let turns = WriteTurns(width: 1)
    let ada = UUID()
    let gate = Gate()
    let ran = Ran()
    let holder = Task { try await turns.run(ada) { await gate.wait() } }
    try await until { turns.inLine(for: ada) == 1 }
    let first = Task { try await turns.run(ada) { ran.add("first") } }
    try await until { turns.inLine(for: ada) == 2 }
    let second = Task { try await turns.run(ada) { ran.add("second") } }
    try await until { turns.inLine(for: ada) == 3 }
    first.cancel()
    await #expect(throws: CancellationError.self) { try await first.value }
    #expect(turns.inLine(for: ada) == 2)
    gate.open()
    try await holder.value
    try await second.value
    #expect(ran.all == ["second"])
  }

  @Test func aCancelledHolderHandsTheTurnOnThoughItsWorkGoesOn() async throws {
    let turns = WriteTurns(width: 1)
    let ada = UUID()
    let gate = Gate()
    let holder = Task { try await turns.run(ada) { await gate.wait() } }
    try await until { turns.inLine(for: ada) == 1 }
    let next = Task { try await turns.run(ada) { "ran" } }
    try await until { turns.inLine(for: ada) == 2 }
    holder.cancel()
    #expect(try await next.value == "ran")
    gate.open()
    try await holder.value
  }

  /// Two of a user's writes hold a turn at once (the next has begun when the one before
  /// commits); a third waits for either, and the first who waits goes first.
  @Test func twoOfAUsersWritesHoldATurnAndTheThirdWaitsForEither() async throws {
    let turns = WriteTurns()
    let ada = UUID()
    let (first, second) = (Gate(), Gate())
    let ran = Ran()
    let holders = [
      Task { try await turns.run(ada) { await first.wait() } },
      Task { try await turns.run(ada) { await second.wait() } },
    ]
    try await until { turns.inLine(for: ada) == 2 }
    let third = Task { try await turns.run(ada) { ran.add("third") } }
    try await until { turns.inLine(for: ada) == 3 }
    let fourth = Task { try await turns.run(ada) { ran.add("fourth") } }
    try await until { turns.inLine(for: ada) == 4 }
    // Were the third holding a turn, its body would have run by now.
    try await Task.sleep(for: .milliseconds(20))
    #expect(ran.all.isEmpty)
    second.open()
    try await third.value
    try await fourth.value
    #expect(ran.all == ["third", "fourth"])
    #expect(turns.inLine(for: ada) == 1)
    first.open()
    for holder in holders { try await holder.value }
    #expect(turns.inLine(for: ada) == 0)
  }
}
