import Foundation
import Synchronization

/// Calls to the database that can be answered together, gathered: one query is under way at a
/// time, and every call made meanwhile waits for the next, which serves all of their keys at
/// once (two calls for one key are merged). Under load each call costs a share of one round
/// trip, where each cost one (docs/server.md); alone it costs what it did.
///
/// Each answer still counts everything that ended before its call: the query that serves a
/// call began after the call was made. So a feed head read this way is exact (a page's
/// revision check), and an announcement of a commit is sent after the commit.
///
/// A waiter is not answered early when cancelled: the query it waits for is time limited. So a
/// call waits at most for the query under way and then its own, each within the time limit.
final class Gathered<Key: Hashable & Sendable, Value: Sendable, Answer: Sendable>: Sendable {
  typealias Waiter = CheckedContinuation<Answer, any Error>
  /// Serves the keys given with their merged values; a key missing from the answer gets
  /// ``missing``.
  typealias Run = @Sendable ([Key: Value]) async throws -> [Key: Answer]

  private struct State {
    var running = false
    var waiting: [Key: (value: Value, waiters: [Waiter])] = [:]
  }

  private let state = Mutex(State())
  private let merge: @Sendable (Value, Value) -> Value
  private let missing: Answer

  init(merging merge: @escaping @Sendable (Value, Value) -> Value, missing: Answer) {
    self.merge = merge
    self.missing = missing
  }

  /// `key`'s answer, served by `run` with whatever else is asked meanwhile.
  func call(_ key: Key, _ value: Value, run: @escaping Run) async throws -> Answer {
    try await withCheckedThrowingContinuation { (waiter: Waiter) in
      let starts = state.withLock { state in
        if let held = state.waiting[key] {
          state.waiting[key] = (merge(held.value, value), held.waiters + [waiter])
        } else {
          state.waiting[key] = (value, [waiter])
        }
        guard !state.running else { return false }
        state.running = true
        return true
      }
      if starts { Task { await self.runWhileCalled(run) } }
    }
  }

  /// How many calls wait for the next query.
  var waiting: Int {
    state.withLock { $0.waiting.values.reduce(0) { $0 + $1.waiters.count } }
  }

  /// Serves the calls made, batch after batch, until no one waits.
  private func runWhileCalled(_ run: Run) async {
    while true {
      let batch = state.withLock { state in
        let batch = state.waiting
        state.waiting = [:]
        if batch.isEmpty { state.running = false }
        return batch
      }
      guard !batch.isEmpty else { return }
      let answer: Result<[Key: Answer], any Error>
      do { answer = .success(try await run(batch.mapValues(\.value))) } catch { answer = .failure(error) }
      for (key, held) in batch {
        for waiter in held.waiters { waiter.resume(with: answer.map { $0[key] ?? missing }) }
      }
    }
  }
}
