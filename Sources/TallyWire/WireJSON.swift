import Foundation
import TallyStore

/// The JSON Tally prints and serves (SPEC 10): camelCase keys, days `YYYY-MM-DD` (their own
/// coding), instants RFC 3339 in UTC with milliseconds, sorted keys so equal data is equal
/// bytes. `tally … --json` pretty-prints the same values the API sends compactly.
public enum WireJSON {
  public static let encoder: JSONEncoder = makeEncoder(pretty: false)
  public static let prettyEncoder: JSONEncoder = makeEncoder(pretty: true)

  public static let decoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { decoder in
      let container = try decoder.singleValueContainer()
      let text = try container.decode(String.self)
      guard let date = InstantText.rfc3339(text) else {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: "'\(text)' is not an RFC 3339 instant")
      }
      return date
    }
    return decoder
  }()

  private static func makeEncoder(pretty: Bool) -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting =
      pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .custom { date, encoder in
      var container = encoder.singleValueContainer()
      try container.encode(InstantText.text(date))
    }
    return encoder
  }
}
