import Synchronization

/// Markup kept per process for the value it was drawn from. Today's date circles show the
/// journal's and the chat's days, today and the selected day, none of which a habit's mark
/// changes; yet drawing them (84 circles of six layers) was a fifth of the page computed
/// after every mark (docs/server.md, "Pages after a write").
final class DrawnOnce<Source: Hashable & Sendable, Drawn: Sendable>: Sendable {
  private let kept = Mutex<[Source: Drawn]>([:])
  private let draw: @Sendable (Source) -> Drawn
  /// Past this many, everything kept is dropped: the markup of a few grids per active user is
  /// what is worth keeping, and dropping all at once needs no bookkeeping on a hit.
  let capacity: Int

  init(capacity: Int, draw: @escaping @Sendable (Source) -> Drawn) {
    self.capacity = capacity
    self.draw = draw
  }

  var count: Int { kept.withLock { $0.count } }

  func callAsFunction(_ source: Source) -> Drawn {
    if let drawn = kept.withLock({ $0[source] }) { return drawn }
    let drawn = draw(source)
    kept.withLock { kept in
      if kept.count >= capacity { kept.removeAll(keepingCapacity: true) }
      kept[source] = drawn
    }
    return drawn
  }
}
