import Foundation
import Synchronization

/// Reads from the database that can be answered together, gathered: one query is under way at
/// a time, and every read asked for meanwhile waits for the next, which serves all of their
/// keys at once. Under load each read costs a share of one round trip, where each cost one
/// (docs/server.md); alone it costs what it did.
///
/// Each answer still counts everything that ended before it was asked for: the query that
/// serves a read began after the read was asked for. So a feed head read this way is exact
/// (a page's revision check).
///
/// A waiter is not answered early when cancelled: the query it waits for is time limited. So a
/// call waits at most for the query under way and then its own, each within the time limit.
final class Gathered<Key: Hashable & Sendable, Answer: Sendable>: Sendable {
  typealias Waiter = CheckedContinuation<Answer, any Error>
  /// Reads the keys given; a key missing from the answer gets ``missing``.
  typealias Run = @Sendable ([Key]) async throws -> [Key: Answer]

  private struct State {
    var running = false
    var waiting: [Key: [Waiter]] = [:]
  }

  private let state = Mutex(State())
  private let missing: Answer

  init(missing: Answer) {
    self.missing = missing
  }

  /// `key`'s answer, read by `run` with whatever else is asked for meanwhile.
  func read(_ key: Key, run: @escaping Run) async throws -> Answer {
    try await withCheckedThrowingContinuation { (waiter: Waiter) in
      let starts = state.withLock { state in
        state.waiting[key, default: []].append(waiter)
        guard !state.running else { return false }
        state.running = true
        return true
      }
      if starts { Task { await self.readWhileAsked(run) } }
    }
  }

  /// How many reads wait for the next query.
  var waiting: Int {
    state.withLock { $0.waiting.values.reduce(0) { $0 + $1.count } }
  }

  /// Serves the reads asked for, batch after batch, until no one waits.
  private func readWhileAsked(_ run: Run) async {
    while true {
      let batch = state.withLock { state in
        let batch = state.waiting
        state.waiting = [:]
        if batch.isEmpty { state.running = false }
        return batch
      }
      guard !batch.isEmpty else { return }
      let answer: Result<[Key: Answer], any Error>
      do { answer = .success(try await run(Array(batch.keys))) } catch { answer = .failure(error) }
      for (key, waiters) in batch {
        for waiter in waiters { waiter.resume(with: answer.map { $0[key] ?? missing }) }
      }
    }
  }
}
