import Foundation

/// The JSON every `--json` prints and `export` writes: sorted keys so output is stable,
/// instants as RFC 3339 in UTC with milliseconds, days as `YYYY-MM-DD` (their own coding).
enum JSONOutput {
  static func encoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .custom { date, encoder in
      var container = encoder.singleValueContainer()
      try container.encode(InstantFormat.text(date))
    }
    return encoder
  }

  static func decoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { decoder in
      let container = try decoder.singleValueContainer()
      let text = try container.decode(String.self)
      guard let date = InstantFormat.date(text) else {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: "'\(text)' is not an RFC 3339 instant")
      }
      return date
    }
    return decoder
  }

  static func text(_ value: some Encodable) throws -> String {
    String(decoding: try encoder().encode(value), as: UTF8.self)
  }
}

extension TextStream {
  /// Prints `value` as JSON and a newline.
  func json(_ value: some Encodable) throws {
    line(try JSONOutput.text(value))
  }
}
