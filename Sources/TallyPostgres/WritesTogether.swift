import Foundation
import PostgresNIO
import Synchronization

/// The writes of each user that wait for a turn through this instance, so that the write whose
/// turn comes makes all of them in its transaction (``PostgresAppDatabase/transaction(together:_:)``).
/// A user's writes take turns behind their row lock, so each commit, and the flush of the
/// log to disk it waits for, is waited for by every write after it; written together, a
/// burst pays for one.
final class WritesTogether: Sendable {
  /// One write: what it does, and how it ended once a turn took it.
  final class Waiting: Sendable {
    enum Outcome: Sendable {
      case committed(any Sendable)
      case failed(any Error)
      /// The writes taken with it failed together; it is made again in a transaction of its own.
      case alone
    }

    let body: @Sendable (PostgresConnection) async throws -> any Sendable
    /// Called once another write's turn has taken it: its caller need not wait for a turn of
    /// its own, only for the outcome.
    let taken: @Sendable () -> Void
    private let state = Mutex<(outcome: Outcome?, waiter: CheckedContinuation<Outcome, Never>?)>((nil, nil))

    init(
      _ body: @escaping @Sendable (PostgresConnection) async throws -> any Sendable,
      taken: @escaping @Sendable () -> Void
    ) {
      self.body = body
      self.taken = taken
    }

    func finish(_ outcome: Outcome) {
      let waiter = state.withLock { state in
        state.outcome = outcome
        defer { state.waiter = nil }
        return state.waiter
      }
      waiter?.resume(returning: outcome)
    }

    /// How it ended, once it has; a caller that waits is not cancelled, as what its write
    /// became, committed or not, is the answer it must give.
    func outcome() async -> Outcome {
      await withCheckedContinuation { continuation in
        let outcome = state.withLock { state in
          if state.outcome == nil { state.waiter = continuation }
          return state.outcome
        }
        if let outcome { continuation.resume(returning: outcome) }
      }
    }
  }

  /// At most this many writes in one transaction, so that none holds the user's lock long.
  static let most = 32
  private let lines = Mutex<[UUID: [Waiting]]>([:])

  func join(_ user: UUID, _ waiting: Waiting) {
    lines.withLock { $0[user, default: []].append(waiting) }
  }

  /// The first of the user's waiting writes, in the order they came, now the caller's to make.
  func take(_ user: UUID) -> [Waiting] {
    let taken = lines.withLock { lines in
      guard let line = lines[user] else { return [Waiting]() }
      lines[user] = line.count > Self.most ? Array(line.dropFirst(Self.most)) : nil
      return Array(line.prefix(Self.most))
    }
    for waiting in taken { waiting.taken() }
    return taken
  }

  /// Takes `waiting` out of the line; false when a turn has already taken it.
  func leave(_ user: UUID, _ waiting: Waiting) -> Bool {
    lines.withLock { lines in
      guard var line = lines[user], let index = line.firstIndex(where: { $0 === waiting }) else { return false }
      line.remove(at: index)
      lines[user] = line.isEmpty ? nil : line
      return true
    }
  }
}
