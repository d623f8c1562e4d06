import Foundation
import PostgresNIO
import PropertyBased
import TallyCore
import TallyPostgresTesting
import TallyStore
import TallySync
import Testing

@testable import TallyPostgres

/// A user's writes that wait for a turn together are made in one transaction, each answered
/// once it has committed; one write's refusal is its own.
@Suite(.enabled(if: PostgresTesting.url != nil, Comment(rawValue: PostgresTesting.skipped)))
struct WritesTogetherTests {
  struct Refused: Error, Equatable {}

  /// Two writes hold the user's two turns on a gate; six more come and wait. Once the gate
  /// opens, the next turn makes the six, whose bodies record their transaction's id.
  static func sixWaiting(
    on database: PostgresAppDatabase, _ body: @escaping @Sendable (PostgresConnection, Int) async throws -> Int64
  ) async throws -> (gates: [WriteTurnsTests.Gate], waiting: [Task<Int64, any Error>]) {
    let user = UUID()
    let (gates, holders) = try await twoHolding(user, on: database)
    let waiting = (0..<6).map { index in
      Task { try await database.transaction(together: user) { connection in try await body(connection, index) } }
    }
    try await until { database.writeTurns.inLine(for: user) == 8 }
    for gate in gates { gate.open() }
    for holder in holders { try await holder.value }
    return (gates, waiting)
  }

  /// Two writes of `user`'s, each in a transaction of its own, holding the user's two turns
  /// until its gate opens.
  static func twoHolding(_ user: UUID, on database: PostgresAppDatabase) async throws
    -> (gates: [WriteTurnsTests.Gate], holders: [Task<Void, any Error>])
  {
    let gates = [WriteTurnsTests.Gate(), WriteTurnsTests.Gate()]
    let entered = WriteTurnsTests.Ran()
    var holders: [Task<Void, any Error>] = []
    for (count, gate) in zip(1..., gates) {
      holders.append(
        Task {
          try await database.transaction(together: user) { _ in
            entered.add("holding")
            await gate.wait()
          }
        })
      // One at a time, so that the second is not taken by the first's turn.
      try await until { entered.all.count == count }
    }
    return (gates, holders)
  }

  static func probe(_ database: PostgresAppDatabase) async throws {
    _ = try await database.transaction { connection in
      try await connection.run("CREATE TABLE together_probe (n int PRIMARY KEY)")
    }
  }

  static func probed(_ database: PostgresAppDatabase) async throws -> [Int32] {
    try await database.withConnection { connection in
      try await connection.values("SELECT n FROM together_probe ORDER BY n", as: Int32.self)
    }
  }

  @Test func writesThatWaitTogetherCommitInOneTransaction() async throws {
    let database = try await PostgresTesting.open(try PostgresTesting.freshLocation(), connections: 4)
    try await Self.probe(database)
    let (_, waiting) = try await Self.sixWaiting(on: database) { connection, index in
      try await connection.run("INSERT INTO together_probe VALUES (\(index))")
      return try await connection.values("SELECT txid_current()", as: Int64.self)[0]
    }
    var transactions: Set<Int64> = []
    for write in waiting { transactions.insert(try await write.value) }
    #expect(transactions.count == 1)
    #expect(try await Self.probed(database) == [0, 1, 2, 3, 4, 5])
  }

  /// The third write is refused, which rolls the shared transaction back: each write is made
  /// again on its own, so the others commit and the third alone is refused, with its error.
  @Test func aRefusedWriteIsRefusedAloneAndTheOthersCommit() async throws {
    let database = try await PostgresTesting.open(try PostgresTesting.freshLocation(), connections: 4)
    try await Self.probe(database)
    let (_, waiting) = try await Self.sixWaiting(on: database) { connection, index in
      try await connection.run("INSERT INTO together_probe VALUES (\(index))")
      if index == 2 { throw Refused() }
      return try await connection.values("SELECT txid_current()", as: Int64.self)[0]
    }
    for (index, write) in waiting.enumerated() {
      if index == 2 {
        await #expect(throws: Refused.self) { try await write.value }
      } else {
        _ = try await write.value
      }
    }
    #expect(try await Self.probed(database) == [0, 1, 3, 4, 5])
  }

  /// The second write, taken by the first's turn while it still waited for its own, is
  /// answered once that transaction commits: a turn of its own would take the third write,
  /// which waits on a gate that opens only after the second has been answered.
  @Test func aWriteMadeByAnothersTurnIsAnsweredWithoutATurnOfItsOwn() async throws {
    let database = try await PostgresTesting.open(try PostgresTesting.freshLocation(), connections: 4)
    let user = UUID()
    let (gates, holders) = try await Self.twoHolding(user, on: database)
    let (first, third) = (WriteTurnsTests.Gate(), WriteTurnsTests.Gate())
    let inFirst = WriteTurnsTests.Ran()
    let firstWrite = Task {
      try await database.transaction(together: user) { _ in
        inFirst.add("first")
        await first.wait()
        return 1
      }
    }
    try await until { database.writeTurns.inLine(for: user) == 3 }
    let secondWrite = Task { try await database.transaction(together: user) { _ in 2 } }
    try await until { database.writeTurns.inLine(for: user) == 4 }
    gates[0].open()
    try await holders[0].value
    try await until { !inFirst.all.isEmpty }
    let thirdWrite = Task { try await database.transaction(together: user) { _ in await third.wait(); return 3 } }
    try await until { database.writeTurns.inLine(for: user) == 3 }
    first.open()
    #expect(try await firstWrite.value == 1)
    // Opens the third's gate if the second is not answered first, so that the test fails
    // rather than waits forever.
    let late = WriteTurnsTests.Ran()
    let deadline = Task {
      try await Task.sleep(for: .seconds(20))
      late.add("the second write was answered only after the third")
      third.open()
    }
    #expect(try await secondWrite.value == 2)
    deadline.cancel()
    #expect(late.all.isEmpty)
    third.open()
    gates[1].open()
    #expect(try await thirdWrite.value == 3)
    try await holders[1].value
  }

  /// A write whose caller goes while it waits for a turn leaves the line, and is not made.
  @Test func aWriteGivenUpOnWhileItWaitsIsNotMade() async throws {
    let database = try await PostgresTesting.open(try PostgresTesting.freshLocation(), connections: 4)
    try await Self.probe(database)
    let user = UUID()
    let (gates, holders) = try await Self.twoHolding(user, on: database)
    let given = Task {
      try await database.transaction(together: user) { connection in
        try await connection.run("INSERT INTO together_probe VALUES (1)")
      }
    }
    try await until { database.writeTurns.inLine(for: user) == 3 }
    given.cancel()
    await #expect(throws: (any Error).self) { try await given.value }
    for gate in gates { gate.open() }
    for holder in holders { try await holder.value }
    _ = try await database.transaction(together: user) { connection in
      try await connection.run("INSERT INTO together_probe VALUES (2)")
    }
    #expect(try await Self.probed(database) == [2])
  }

  /// Sixteen marks of one user at once through one instance, on two days, some with a note of
  /// their own and some keeping the day's: they go alone, under the lock and together, and
  /// each day ends as its feed row says, which is what every replica copies.
  @Test func marksOfOneUserAtOnceLeaveEachDayAsItsFeedRowSays() async throws {
    let store = PostgresStore(try await PostgresTesting.open(try PostgresTesting.freshLocation(), connections: 4))
    let ada = try await makeUser(store)
    let habit = try await store.createHabit(makeHabit(), for: ada.id)
    let days = [day("2026-04-01"), day("2026-04-02")]
    await propertyCheck(count: 30, input: Gen.int(in: 0..<8).array(of: 16...16)) { codes in
      do {
        try await withThrowingTaskGroup(of: Void.self) { group in
          for (index, code) in codes.enumerated() {
            group.addTask {
              // Bit 0: the day; bit 1: done or skipped; bit 2: a note of its own, or the day's kept.
              let answered = try await store.setDays(
                [days[code % 2]], of: habit.id, to: code & 2 == 0 ? .done : .skipped,
                note: code & 4 == 0 ? nil : "note \(index)", for: ada.id)
              #expect(answered.map(\.status) == [code & 2 == 0 ? .done : .skipped], "\(codes)")
            }
          }
          try await group.waitForAll()
        }
        let feed = try await store.syncChanges(for: ada.id, after: 0, limit: 10_000).changes
        for entry in try await store.entries(of: habit.id, for: ada.id) {
          let row = feed.last { $0.id == SyncID.entry(habit.id, entry.day) }
          #expect(row?.fields == SyncFields.entry(status: entry.status, note: entry.note), "\(codes)")
        }
      } catch {
        Issue.record("\(codes): \(error)")
      }
    }
  }
}
