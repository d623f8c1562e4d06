import Foundation
import Synchronization

/// At most two write transactions per user at a time from this instance, the others waiting
/// here in the order they came: not in PostgreSQL behind the user's row lock, each holding a
/// pooled connection that other users' requests need and costing the database a lock wait
/// and a wake-up. Two rather than one so that the next write has begun and asked for the lock
/// when the one before commits: one at a time, each write's begin and hand-over were waited for
/// by all after it (docs/server.md). Only a saving: the row lock (`tally_lock_user`) still
/// keeps a user's writes in turn across instances and on every path.
///
/// A cancelled holder hands the turn on at once, even if its work does not stop (a query on a
/// connection the server dropped): the row lock keeps what follows correct, and the user's
/// writes are not stuck behind it.
final class WriteTurns: Sendable {
  private enum Phase {
    case new
    case waiting(CheckedContinuation<Void, any Error>)
    case holding
    case done
  }

  private struct State {
    var next: UInt64 = 0
    var phases: [UInt64: Phase] = [:]
    /// Each user's holders first, then who waits, in order.
    var lines: [UUID: [UInt64]] = [:]
  }

  private let state = Mutex(State())
  /// How many of a user's writes may hold a turn at once.
  let width: Int

  init(width: Int = 2) {
    precondition(width > 0)
    self.width = width
  }

  /// A place to wait for a turn in (``run(_:ticket:_:)``), which another task can give up
  /// while it is waited for (``giveUp(_:_:)``).
  func ticket() -> UInt64 {
    state.withLock { state in
      state.next += 1
      state.phases[state.next] = .new
      return state.next
    }
  }

  /// `body` once it is `user`'s turn; cancelling the caller leaves the line, or the turn.
  func run<T>(_ user: UUID, ticket: UInt64? = nil, _ body: () async throws -> T) async throws -> T {
    let id = ticket ?? self.ticket()
    defer { state.withLock { _ = $0.phases.removeValue(forKey: id) } }
    return try await withTaskCancellationHandler {
      try await take(user, id)
      defer { leave(user, id) }
      return try await body()
    } onCancel: {
      leave(user, id)
    }
  }

  /// How many hold or wait for `user`'s turn.
  func inLine(for user: UUID) -> Int {
    state.withLock { $0.lines[user]?.count ?? 0 }
  }

  private func take(_ user: UUID, _ id: UInt64) async throws {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
      let answer: Result<Void, any Error>? = state.withLock { state in
        // Cancelled before it came to the line.
        guard case .new? = state.phases[id] else { return .failure(CancellationError()) }
        state.lines[user, default: []].append(id)
        guard state.lines[user]!.count > width else {
          state.phases[id] = .holding
          return .success(())
        }
        state.phases[id] = .waiting(continuation)
        return nil
      }
      if let answer { continuation.resume(with: answer) }
    }
  }

  /// Gives up the turn `ticket` waits for, or has not yet asked for: its caller throws
  /// `CancellationError`. A turn already held is kept.
  func giveUp(_ user: UUID, _ ticket: UInt64) {
    leave(user, ticket, keepingHeld: true)
  }

  /// Leaves the line, or the turn (unless `keepingHeld`), which goes to the next in line.
  private func leave(_ user: UUID, _ id: UInt64, keepingHeld: Bool = false) {
    let (cancelled, next): (CheckedContinuation<Void, any Error>?, CheckedContinuation<Void, any Error>?) =
      state.withLock { state in
        switch state.phases[id] {
        case .new?:
          state.phases[id] = .done
          return (nil, nil)
        case .waiting(let continuation)?:
          state.phases[id] = .done
          state.lines[user]?.removeAll { $0 == id }
          return (continuation, nil)
        case .holding? where !keepingHeld:
          state.phases[id] = .done
          var line = state.lines[user] ?? []
          line.removeAll { $0 == id }
          state.lines[user] = line.isEmpty ? nil : line
          // The first who waits, if any, is now among the first `width`.
          guard line.count >= width, case .waiting(let continuation)? = state.phases[line[width - 1]] else {
            return (nil, nil)
          }
          state.phases[line[width - 1]] = .holding
          return (nil, continuation)
        case .holding?, .done?, nil:
          return (nil, nil)
        }
      }
    cancelled?.resume(throwing: CancellationError())
    next?.resume()
  }
}
