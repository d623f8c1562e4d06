import Foundation
import Synchronization

/// Each user's latest committed feed position as this process knows it, and the live streams
/// waiting for it to move (docs/sync.md "Live changes").
///
/// Every write of a user's data takes a feed position in its transaction, so the head is the
/// user's revision: equal heads mean equal data. A store moves a head only after the commit
/// that took it (this process's commits as they end, other instances' as PostgreSQL announces
/// them), so a head read here is never ahead of the database. A head not known is `nil`, and
/// the store reads it from the database.
public final class FeedHeads: Sendable {
  private struct State {
    var heads: [UUID: Int64] = [:]
    /// Moves whenever every head is forgotten, so a head read from the database before that
    /// is not kept after it.
    var epoch = 0
    /// Off while commits elsewhere could go unannounced (PostgreSQL's listener is down):
    /// nothing is kept then, and every head is read from the database.
    var tracking: Bool
    var waiters: [UUID: [Int: AsyncStream<Int64?>.Continuation]] = [:]
    var nextWaiter = 0
    var waiting = 0

    var everyWaiter: [AsyncStream<Int64?>.Continuation] { waiters.values.flatMap(\.values) }

    func hasRoom(for user: UUID, limits: Limits) -> Bool {
      (waiters[user]?.count ?? 0) < limits.perUser && waiting < limits.total
    }
  }

  private let state: Mutex<State>
  /// Past this many users every head is forgotten: a head is only a shortcut.
  public let capacity: Int

  /// `tracking`: whether every commit reaches ``advance(_:)`` from the start.
  public init(tracking: Bool = true, capacity: Int = 200_000) {
    state = Mutex(State(tracking: tracking))
    self.capacity = capacity
  }

  /// The user's head, when known.
  public func head(of user: UUID) -> Int64? {
    state.withLock { $0.heads[user] }
  }

  /// Changes whenever every head is forgotten; pass it back to ``remember(_:of:epoch:)``.
  public var epoch: Int { state.withLock { $0.epoch } }

  /// Keeps a head read from the database, unless every head was forgotten since `epoch` was
  /// read (the value may predate that) or a commit already moved it further. A head it raises
  /// wakes the user's streams as a commit would: the announcement of that commit may come
  /// after this read, and then finds the head already there.
  public func remember(_ head: Int64, of user: UUID, epoch: Int) {
    let woken = state.withLock { state -> [AsyncStream<Int64?>.Continuation] in
      guard state.tracking, state.epoch == epoch, head > state.heads[user] ?? Int64.min else { return [] }
      Self.keep(head, of: user, in: &state, capacity: capacity)
      return Array((state.waiters[user] ?? [:]).values)
    }
    for waiter in woken { waiter.yield(head) }
  }

  /// Heads moved by commits that have ended: each waiting stream of those users hears of it.
  public func advance(_ moved: [UUID: Int64]) {
    guard !moved.isEmpty else { return }
    let woken = state.withLock { state -> [(AsyncStream<Int64?>.Continuation, Int64)] in
      var woken: [(AsyncStream<Int64?>.Continuation, Int64)] = []
      for (user, position) in moved where position > state.heads[user] ?? Int64.min {
        if state.tracking { Self.keep(position, of: user, in: &state, capacity: capacity) }
        woken += (state.waiters[user] ?? [:]).values.map { ($0, position) }
      }
      return woken
    }
    for (waiter, position) in woken { waiter.yield(position) }
  }

  /// Forgets every head and wakes every stream to read its own: commits may have gone unseen.
  /// `tracking` says whether commits reach ``advance(_:)`` from now on.
  public func forgetAll(tracking: Bool) {
    let woken = state.withLock { state in
      state.heads.removeAll()
      state.epoch += 1
      state.tracking = tracking
      return state.everyWaiter
    }
    for waiter in woken { waiter.yield(nil) }
  }

  /// Whether commits reach ``advance(_:)``: when not, a store checks the database itself.
  public var isTracking: Bool { state.withLock { $0.tracking } }

  /// The users whose heads are kept or awaited: what a store reads again when it has missed
  /// commits.
  public var watchedUsers: Set<UUID> {
    state.withLock { Set($0.heads.keys).union($0.waiters.keys) }
  }

  /// How many streams are waiting.
  public var waiting: Int {
    state.withLock { $0.waiting }
  }

  /// Wakes every stream to look at its head again (its ``Subscription`` gives `nil`): a
  /// heartbeat.
  public func wakeAll() {
    for waiter in state.withLock({ $0.everyWaiter }) { waiter.yield(nil) }
  }

  /// How many streams may wait: for one user, and in all.
  public struct Limits: Sendable {
    public var perUser: Int
    public var total: Int

    public init(perUser: Int, total: Int) {
      self.perUser = perUser
      self.total = total
    }
  }

  /// One stream's wait: the heads the user's data moves to, as they move, or `nil` when the
  /// stream should read its head again (every head was forgotten, or a heartbeat).
  public struct Subscription: Sendable {
    public let moves: AsyncStream<Int64?>
    fileprivate let continuation: AsyncStream<Int64?>.Continuation

    /// Ends ``moves``, as when the stream's reader goes.
    public func stop() {
      continuation.finish()
    }
  }

  /// Whether ``subscribe(_:limits:)`` would find room now.
  public func hasRoom(for user: UUID, limits: Limits) -> Bool {
    state.withLock { $0.hasRoom(for: user, limits: limits) }
  }

  /// Waits for the user's head to move; `nil` when `limits` would be passed.
  public func subscribe(_ user: UUID, limits: Limits) -> Subscription? {
    let (stream, continuation) = AsyncStream<Int64?>.makeStream(bufferingPolicy: .bufferingNewest(1))
    let id = state.withLock { state -> Int? in
      guard state.hasRoom(for: user, limits: limits) else { return nil }
      state.nextWaiter += 1
      state.waiting += 1
      state.waiters[user, default: [:]][state.nextWaiter] = continuation
      return state.nextWaiter
    }
    guard let id else { return nil }
    continuation.onTermination = { [weak self] _ in
      self?.state.withLock { state in
        if state.waiters[user]?.removeValue(forKey: id) != nil { state.waiting -= 1 }
        if state.waiters[user]?.isEmpty == true { state.waiters[user] = nil }
      }
    }
    return Subscription(moves: stream, continuation: continuation)
  }

  private static func keep(_ head: Int64, of user: UUID, in state: inout State, capacity: Int) {
    if state.heads[user] == nil, state.heads.count >= capacity {
      state.heads.removeAll(keepingCapacity: true)
      state.epoch += 1
    }
    state.heads[user] = max(head, state.heads[user] ?? head)
  }
}
