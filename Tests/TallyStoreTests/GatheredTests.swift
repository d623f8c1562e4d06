import Foundation
import Synchronization
import TallyPostgresTesting
import TallyStore
import Testing

@testable import TallyPostgres

/// Reads asked for while a query is under way wait for the next query, which serves them all:
/// never the one under way, which may have begun before a commit they must see.
@Suite struct GatheredTests {
  typealias HeadReads = Gathered<UUID, Int64>

  /// A query that answers only when the test says, and notes what each was asked.
  final class Database: Sendable {
    private let state = Mutex<(asked: [[UUID]], answers: [CheckedContinuation<[UUID: Int64], any Error>])>(([], []))

    var run: HeadReads.Run {
      { asked in
        try await withCheckedThrowingContinuation { continuation in
          self.state.withLock { state in
            state.asked.append(asked)
            state.answers.append(continuation)
          }
        }
      }
    }

    var asked: [[UUID]] { state.withLock { $0.asked } }

    /// Answers the oldest query still open.
    func answer(_ result: Result<[UUID: Int64], any Error>) {
      let continuation = state.withLock { $0.answers.removeFirst() }
      continuation.resume(with: result)
    }

    var open: Int { state.withLock { $0.answers.count } }
  }

  struct Unreachable: Error, Equatable {}

  static func headReads() -> HeadReads { HeadReads(missing: 0) }

  @Test func readsAskedDuringAQueryWaitForTheNextAndShareIt() async throws {
    let reads = Self.headReads()
    let database = Database()
    let (ada, bob) = (UUID(), UUID())
    let first = Task { try await reads.read(ada, run: database.run) }
    try await until { database.open == 1 }
    let later = [ada, bob, ada].map { user in Task { try await reads.read(user, run: database.run) } }
    try await until { reads.waiting == 3 }
    #expect(database.asked.count == 1)
    database.answer(.success([ada: 4]))
    #expect(try await first.value == 4)
    try await until { database.open == 1 }
    #expect(database.asked.last.map(Set.init) == [ada, bob])
    // Bob has no head yet: 0, as for a user who never wrote.
    database.answer(.success([ada: 7]))
    var answers: [Int64] = []
    for read in later { answers.append(try await read.value) }
    #expect(answers == [7, 0, 7])
    #expect(database.asked.count == 2)
    #expect(reads.waiting == 0)
  }

  @Test func aFailedQueryFailsOnlyTheReadsItWasForAndTheNextStillRuns() async throws {
    let reads = Self.headReads()
    let database = Database()
    let (ada, bob) = (UUID(), UUID())
    let first = Task { try await reads.read(ada, run: database.run) }
    try await until { database.open == 1 }
    let second = Task { try await reads.read(bob, run: database.run) }
    try await until { reads.waiting == 1 }
    database.answer(.failure(Unreachable()))
    await #expect(throws: Unreachable.self) { try await first.value }
    try await until { database.open == 1 }
    database.answer(.success([bob: 2]))
    #expect(try await second.value == 2)
    let third = Task { try await reads.read(bob, run: database.run) }
    try await until { database.open == 1 }
    database.answer(.success([bob: 3]))
    #expect(try await third.value == 3)
  }
}

/// Against the database: many checks at once, for several users, each exact.
@Suite(.enabled(if: PostgresTesting.url != nil, Comment(rawValue: PostgresTesting.skipped)))
struct PostgresHeadReadsTests {
  @Test func checksThatComeTogetherEachSeeTheirOwnUsersLatestCommit() async throws {
    let store = try await PostgresTesting.store()
    var users: [UUID] = []
    for name in ["ada", "bob", "cy"] { users.append(try await makeUser(store, name).id) }
    for round in 1...3 {
      for (index, user) in users.enumerated() where index < round {
        _ = try await store.createHabit(makeHabit("Habit \(round)"), for: user)
      }
      var expected: [UUID: Int64] = [:]
      for user in users { expected[user] = try await store.syncHead(for: user) }
      let seen = try await withThrowingTaskGroup(of: (UUID, Int64).self) { group in
        for _ in 0..<20 {
          for user in users { group.addTask { (user, try await store.revision(for: user).head) } }
        }
        return try await group.reduce(into: [(UUID, Int64)]()) { $0.append($1) }
      }
      #expect(seen.count == 60)
      #expect(seen.allSatisfy { expected[$0.0] == $0.1 })
    }
  }
}
