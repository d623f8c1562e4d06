import Foundation

/// Waits until `condition` holds, asking every `every`; after `within` it throws
/// ``StillNotSo`` naming `what`, and the test fails. For whatever a test waits for from a
/// server, a listener or a process: what arrives "within seconds" arrives, or the test fails.
/// How fast it arrives is the benchmarks' to measure.
public func eventually(
  _ what: String = "still not so",
  within: Duration = .seconds(20),
  every: Duration = .milliseconds(20),
  _ condition: () async throws -> Bool
) async throws {
  let deadline = ContinuousClock.now + within
  while try await !condition() {
    guard ContinuousClock.now < deadline else { throw StillNotSo(what: what, after: within) }
    try await Task.sleep(for: every)
  }
}

/// A wait of ``eventually(_:within:every:_:)`` that ran out.
public struct StillNotSo: Error, CustomStringConvertible {
  public let what: String
  public let after: Duration

  public var description: String { "\(what) after \(after)" }
}
