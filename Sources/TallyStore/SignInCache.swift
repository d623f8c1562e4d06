import Foundation
import Synchronization

/// Who requests come from, kept in memory: API tokens and browser sessions by the hash of their
/// secret, and their users. Most requests then read nothing to find their user, an empty poll
/// nothing at all (docs/storage.md "Signed-in lookups").
///
/// Everything is forgotten whenever any of it may have changed: when this process commits a
/// change to a user, a token or a session, and when another process or instance may have
/// (SQLite's `data_version`, PostgreSQL's announcements). While such commits could go unseen
/// (PostgreSQL's listener is down) nothing is kept. A secret not found is never kept, so
/// guessing fills no memory.
public final class SignInCache: Sendable {
  public enum Key: Hashable, Sendable {
    case token(hash: String)
    case session(hash: String)
    case user(UUID)
  }

  private struct State {
    var kept: [Key: any Sendable] = [:]
    /// Moves whenever everything is forgotten, so a value read before that is not kept after.
    var epoch = 0
    var tracking: Bool
  }

  private let state: Mutex<State>
  /// Past this many values everything is forgotten: a kept value is only a shortcut.
  public let capacity: Int

  /// `tracking`: whether every change is reported from the start.
  public init(tracking: Bool = true, capacity: Int = 100_000) {
    state = Mutex(State(tracking: tracking))
    self.capacity = capacity
  }

  /// The value kept under `key`, else what `read` returns, kept unless everything was
  /// forgotten while it read.
  public func value<Value: Sendable>(_ key: Key, orRead read: () async throws -> Value) async throws -> Value {
    let (kept, epoch) = state.withLock { ($0.kept[key], $0.epoch) }
    if let kept = kept as? Value { return kept }
    let value = try await read()
    keep(value, under: key, epoch: epoch)
    return value
  }

  /// ``value(_:orRead:)`` for what may not exist: nothing found is kept.
  public func value<Value: Sendable>(_ key: Key, orFind find: () async throws -> Value?) async throws -> Value? {
    let (kept, epoch) = state.withLock { ($0.kept[key], $0.epoch) }
    if let kept = kept as? Value { return kept }
    guard let value = try await find() else { return nil }
    keep(value, under: key, epoch: epoch)
    return value
  }

  /// The token or session kept under `key`, else what `find` returns, if still valid at `now`
  /// (a kept one expires on time too).
  public func valid<Value: ExpiringCredential>(
    _ key: Key, at now: Date, orFind find: () async throws -> Value?
  ) async throws -> Value? {
    try await value(key, orFind: find).flatMap { $0.isValid(at: now) ? $0 : nil }
  }

  /// Forgets everything; `tracking`, when given, says whether changes are reported from now on.
  public func forgetAll(tracking: Bool? = nil) {
    state.withLock { state in
      state.kept.removeAll()
      state.epoch += 1
      if let tracking { state.tracking = tracking }
    }
  }

  private func keep(_ value: any Sendable, under key: Key, epoch: Int) {
    state.withLock { state in
      guard state.tracking, state.epoch == epoch else { return }
      if state.kept.count >= capacity { state.kept.removeAll(keepingCapacity: true) }
      state.kept[key] = value
    }
  }
}
