/// A position in the date picker grid's coordinate space: x from the left edge of the full
/// width (side padding included), y from the top of the first row.
public struct GridPoint: Hashable, Codable, Sendable {
  public var x: Double
  public var y: Double

  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }
}
