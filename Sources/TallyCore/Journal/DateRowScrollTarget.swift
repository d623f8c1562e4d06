/// Where the date row scrolls so the selected day stays in view.
public enum DateRowScrollTarget: Hashable, Sendable {
  public enum Anchor: String, Hashable, Codable, Sendable {
    case leading, trailing
  }

  /// The stats header at the row's start, aligned leading.
  case header
  /// The circle at `index` in the row's 33 days.
  case day(index: Int, anchor: Anchor)
}

// Wire shape: {"kind": "header"} or {"kind": "day", "index": 7, "anchor": "leading"}.
extension DateRowScrollTarget: Codable {
  private enum CodingKeys: String, CodingKey { case kind, index, anchor }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    switch try container.decode(String.self, forKey: .kind) {
    case "header":
      self = .header
    case "day":
      self = .day(
        index: try container.decode(Int.self, forKey: .index),
        anchor: try container.decode(Anchor.self, forKey: .anchor))
    case let other:
      throw DecodingError.dataCorruptedError(
        forKey: .kind, in: container,
        debugDescription: "'\(other)' is not a scroll target; expected header or day")
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .header:
      try container.encode("header", forKey: .kind)
    case .day(let index, let anchor):
      try container.encode("day", forKey: .kind)
      try container.encode(index, forKey: .index)
      try container.encode(anchor, forKey: .anchor)
    }
  }
}
