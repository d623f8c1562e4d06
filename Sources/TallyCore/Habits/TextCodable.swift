/// A value whose wire form is one string, read back with the same rules — and the same
/// error — as typed input, so a bad value in a file or request is rejected in the words the
/// CLI would use.
public protocol TextCodable: Codable, CustomStringConvertible {
  /// `field` names the input in the error.
  init(parsing text: String, field: String) throws(ValidationError)
}

extension TextCodable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    do {
      try self.init(parsing: text, field: decoder.codingPath.last?.stringValue ?? "value")
    } catch {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}
