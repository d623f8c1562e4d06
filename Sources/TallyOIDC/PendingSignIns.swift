import Foundation

/// Where a server keeps the sign-ins it began until their callbacks come: in its memory
/// (``PendingSignIns``), or in a database every instance shares, so a callback may reach
/// another instance than the one that sent the person away. Each is taken once.
public protocol PendingSignInStore: Sendable {
  func keep(_ pending: PendingSignIn) async throws
  /// The sign-in `state` names, removed so it cannot be taken again; nil when there is none
  /// or it is older than its lifetime at `now`.
  func take(state: String, at now: Date) async throws -> PendingSignIn?
}

/// The sign-ins begun and not yet finished, in this process's memory. Each is taken once, so a
/// replayed callback finds nothing; each lives at most `lifetime`; and at most `capacity` are
/// kept, the oldest giving way first: anyone may begin a sign-in, so memory must not grow
/// with them.
public actor PendingSignIns: PendingSignInStore {
  public let lifetime: TimeInterval
  public let capacity: Int

  private var byState: [String: PendingSignIn] = [:]
  /// States in the order they were kept, oldest first; a taken one stays until it reaches the
  /// front or the list is compacted.
  private var order: [String] = []

  public init(lifetime: TimeInterval = 600, capacity: Int = 10_000) {
    self.lifetime = lifetime
    self.capacity = max(1, capacity)
  }

  public func keep(_ pending: PendingSignIn) {
    forgetExpired(at: pending.createdAt)
    while byState.count >= capacity, !order.isEmpty {
      byState[order.removeFirst()] = nil
    }
    if order.count >= 2 * capacity {
      order.removeAll { byState[$0] == nil }
    }
    byState[pending.state] = pending
    order.append(pending.state)
  }

  /// The sign-in `state` names, removed so it cannot be taken again; nil when there is none
  /// or it is older than `lifetime` at `now`.
  public func take(state: String, at now: Date) -> PendingSignIn? {
    guard let pending = byState.removeValue(forKey: state) else { return nil }
    return now.timeIntervalSince(pending.createdAt) < lifetime ? pending : nil
  }

  public var count: Int { byState.count }

  private func forgetExpired(at now: Date) {
    while let oldest = order.first {
      if let pending = byState[oldest], now.timeIntervalSince(pending.createdAt) < lifetime { return }
      byState[oldest] = nil
      order.removeFirst()
    }
  }
}
