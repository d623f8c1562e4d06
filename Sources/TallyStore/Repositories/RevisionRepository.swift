/// A value that changes whenever a committed write may have changed what a read returns: by
/// this process or, for a shared file, by any other. Readers that keep computed answers (the
/// server's response cache) compare it to know when to compute again.
public protocol RevisionRepository: Sendable {
  func revision() async throws -> StoreRevision
}

/// Opaque: only equality means anything.
public struct StoreRevision: Hashable, Sendable, CustomStringConvertible {
  public var writes: Int
  public var external: Int

  public init(writes: Int, external: Int = 0) {
    self.writes = writes
    self.external = external
  }

  public var description: String { "\(writes).\(external)" }
}
