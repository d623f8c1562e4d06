import Synchronization

/// What several callers must each send, sent together: one send is under way at a time, and
/// the items asked for meanwhile wait for the next, which the first of their callers makes
/// for all of them (with its own connection) once the one under way has ended. Under load a
/// caller pays a share of one send where each paid one; alone it pays what it did.
///
/// Each call returns once a send that carried its items has ended, having waited at most for
/// the send under way and then the next. A caller that must send does so even when cancelled:
/// the others wait for it, and a send on a cancelled caller's connection fails at once.
final class SentTogether<Item: Sendable>: Sendable {
  /// Sends the items given; whether they went.
  typealias Send = ([Item]) async -> Bool

  private enum Turn: Sendable {
    /// The items were sent by another caller, or failed to be.
    case sent(Bool)
    /// This caller sends these items, then answers those waiters.
    case send([Item], answering: [Waiter])
  }

  private typealias Waiter = CheckedContinuation<Turn, Never>

  private struct State {
    var sending = false
    var waiting: [(items: [Item], waiter: Waiter)] = []
  }

  private let state = Mutex(State())

  /// How many callers wait for the next send.
  var waiting: Int { state.withLock { $0.waiting.count } }

  /// Sends `items` with `send`, or waits for another caller to send them: whether they went.
  func send(_ items: [Item], by send: Send) async -> Bool {
    let turn = await withCheckedContinuation { (waiter: Waiter) in
      let first = state.withLock { state in
        guard state.sending else {
          state.sending = true
          return true
        }
        state.waiting.append((items, waiter))
        return false
      }
      if first { waiter.resume(returning: .send(items, answering: [])) }
    }
    switch turn {
    case .sent(let went): return went
    case .send(let batch, let answering): return await sendThenHandOn(batch, answering, send)
    }
  }

  /// Sends `batch`, answers the callers it was for, and hands what came meanwhile to the first
  /// of those callers.
  private func sendThenHandOn(_ batch: [Item], _ answering: [Waiter], _ send: Send) async -> Bool {
    let went = await send(batch)
    for waiter in answering { waiter.resume(returning: .sent(went)) }
    let next = state.withLock { state in
      defer { state.waiting = [] }
      if state.waiting.isEmpty { state.sending = false }
      return state.waiting
    }
    if let first = next.first {
      first.waiter.resume(returning: .send(next.flatMap(\.items), answering: next.dropFirst().map(\.waiter)))
    }
    return went
  }
}
