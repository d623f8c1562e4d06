import Foundation
import Synchronization

/// Reads of users' feed heads, gathered: one query is under way at a time, and every read
/// asked for meanwhile waits for the next, which reads all of their users at once. Each read
/// is still exact, because the query that answers it began after it was asked: it counts
/// every commit that ended before. Under load a page's revision check then costs a share of
/// one round trip, where each cost one (docs/server.md); alone it costs what it did.
///
/// A waiter is not answered early when cancelled: the query it waits for is time limited. So a
/// check waits at most for the query under way and then its own, each within the time limit.
final class HeadReads: Sendable {
  typealias Waiter = CheckedContinuation<Int64, any Error>
  /// Reads the heads of the users given; a user who has none is missing from the answer.
  typealias Read = @Sendable ([UUID]) async throws -> [UUID: Int64]

  private struct State {
    var reading = false
    var waiting: [UUID: [Waiter]] = [:]
  }

  private let state = Mutex(State())

  /// `user`'s head (0 when they have none), read by `read` with whoever else asks meanwhile.
  func head(of user: UUID, read: @escaping Read) async throws -> Int64 {
    try await withCheckedThrowingContinuation { (waiter: Waiter) in
      let starts = state.withLock { state in
        state.waiting[user, default: []].append(waiter)
        guard !state.reading else { return false }
        state.reading = true
        return true
      }
      if starts { Task { await self.readWhileAsked(read) } }
    }
  }

  /// How many reads wait for the next query.
  var waiting: Int {
    state.withLock { $0.waiting.values.reduce(0) { $0 + $1.count } }
  }

  /// Reads the heads asked for, batch after batch, until no one waits.
  private func readWhileAsked(_ read: Read) async {
    while true {
      let batch = state.withLock { state in
        let batch = state.waiting
        state.waiting = [:]
        if batch.isEmpty { state.reading = false }
        return batch
      }
      guard !batch.isEmpty else { return }
      let answer: Result<[UUID: Int64], any Error>
      do { answer = .success(try await read(Array(batch.keys))) } catch { answer = .failure(error) }
      for (user, waiters) in batch {
        for waiter in waiters { waiter.resume(with: answer.map { $0[user] ?? 0 }) }
      }
    }
  }
}
