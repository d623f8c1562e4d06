import Foundation
import TallyWire

/// The JSON every `--json` prints and `export` writes: sorted keys so output is stable,
/// instants as RFC 3339 in UTC with milliseconds, days as `YYYY-MM-DD` (their own coding).
enum JSONOutput {
  static func encoder() -> JSONEncoder { WireJSON.prettyEncoder }

  static func decoder() -> JSONDecoder { WireJSON.decoder }

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
