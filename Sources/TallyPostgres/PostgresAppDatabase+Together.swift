import Foundation
import PostgresNIO
import TallyStore

extension PostgresAppDatabase {
  /// Runs `body` in a transaction in `user`'s turn, as ``transaction(_:timeLimited:turnOf:_:)``
  /// does, but together with the user's other such writes that waited for the same turn: the
  /// write whose turn comes makes every write waiting then (``WritesTogether``), one after
  /// another in the order they came, in one transaction with one commit. Each caller is
  /// answered once the transaction has committed and this instance has learned of it. When the
  /// transaction fails because a write in it failed (refused, or a deadlock), each of its
  /// writes is made again in a transaction of its own, so that one write's refusal is its
  /// own. `body` may run more than once, as a transaction's may.
  func transaction<T: Sendable>(
    together user: UUID, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
  ) async throws -> T {
    // A write another's turn takes leaves the line for turns: its caller is answered once
    // that turn's transaction ends, not after a turn of its own, which may be another's.
    let ticket = writeTurns.ticket()
    let waiting = WritesTogether.Waiting(
      { try await body($0) }, taken: { [writeTurns] in writeTurns.giveUp(user, ticket) })
    together.join(user, waiting)
    do {
      try await limited { [self] in
        try await writeTurns.run(user, ticket: ticket) { [self] in
          let taken = together.take(user)
          guard !taken.isEmpty else { return }
          // Once taken, the writes are made even if the caller whose turn it is goes: the others
          // wait for them.
          await Task { await makeTogether(taken) }.value
        }
      }
    } catch {
      // Given up on before a turn took it: nothing of it was written. Otherwise, taken by
      // another's turn (which gave up this one's) or given up on too late, it has an outcome.
      if together.leave(user, waiting) { throw error }
    }
    switch await waiting.outcome() {
    case .committed(let value): return value as! T
    case .failed(let error): throw error
    case .alone: return try await transaction(turnOf: user, body)
    }
  }

  private func makeTogether(_ taken: [WritesTogether.Waiting]) async {
    do {
      let results = try await announcing { [self] in
        try await limited { [self] in
          try await leasedAnnouncing { connection in
            try await connection.openTransaction { connection in
              var results: [any Sendable] = []
              for waiting in taken { results.append(try await waiting.body(connection)) }
              return results
            }
          }
        }
      }
      for (waiting, result) in zip(taken, results) { waiting.finish(.committed(result)) }
    } catch {
      let failure = error as? TransactionFailure
      let cause = failure?.cause ?? error
      let retryable = (cause as? PSQLError).map(Self.isRetryable) ?? false
      // A write's own failure, or a deadlock, is retried alone; a failure of the database (it
      // did not answer, or the commit's outcome is unknown) is every write's answer.
      let alone = retryable || (failure?.step == .body && taken.count > 1)
      for waiting in taken { waiting.finish(alone ? .alone : .failed(cause)) }
    }
  }
}
