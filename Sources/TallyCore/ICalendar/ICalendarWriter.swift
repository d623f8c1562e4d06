import Foundation

/// Writes RFC 5545 text: CRLF line ends, content lines folded at 75 octets without splitting a
/// UTF-8 sequence, TEXT values escaped. Every feed and export Tally writes goes through it.
public struct ICalendarWriter: Sendable {
  private var lines: [String] = []

  public init() {}

  /// The document: every content line folded, each ending in CRLF (the last one too).
  public var text: String {
    lines.map { Self.fold($0) + "\r\n" }.joined()
  }

  public mutating func begin(_ component: String) { lines.append("BEGIN:\(component)") }
  public mutating func end(_ component: String) { lines.append("END:\(component)") }

  /// A property whose value is already in its iCalendar form (a date, a duration, a URI…).
  public mutating func raw(_ name: String, _ value: String, parameters: String = "") {
    lines.append(name + parameters + ":" + value)
  }

  /// A TEXT property: the value is escaped.
  public mutating func text(_ name: String, _ value: String) {
    lines.append(name + ":" + Self.escape(value))
  }

  public mutating func instant(_ name: String, _ date: Date) {
    raw(name, Self.utc(date))
  }

  /// An all-day date (`;VALUE=DATE`).
  public mutating func day(_ name: String, _ day: Day) {
    raw(name, Self.date(day), parameters: ";VALUE=DATE")
  }

  /// TEXT escaping (RFC 5545 3.3.11): backslash, semicolon, comma and newlines. A CR is dropped
  /// (CRLF and a lone CR both become one `\n`); other control characters cannot appear in TEXT.
  public static func escape(_ value: String) -> String {
    var out = ""
    out.reserveCapacity(value.utf8.count)
    var previousWasCR = false
    for scalar in value.unicodeScalars {
      defer { previousWasCR = scalar == "\r" }
      switch scalar {
      case "\\": out += "\\\\"
      case ";": out += "\\;"
      case ",": out += "\\,"
      case "\r": out += "\\n"
      case "\n": if !previousWasCR { out += "\\n" }
      case "\t": out.unicodeScalars.append(scalar)
      case _ where scalar.value < 0x20 || scalar.value == 0x7F: continue
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// Splits a content line into chunks of at most 75 octets (the first) and 74 plus the leading
  /// space (the rest), joined by CRLF SPACE, never inside a UTF-8 sequence.
  public static func fold(_ line: String) -> String {
    guard line.utf8.count > 75 else { return line }
    var out = ""
    var width = 0
    var limit = 75
    for scalar in line.unicodeScalars {
      let size = UTF8.width(scalar)
      if width + size > limit {
        out += "\r\n "
        width = 1
        limit = 75
      }
      out.unicodeScalars.append(scalar)
      width += size
    }
    return out
  }

  /// `YYYYMMDDTHHMMSSZ`, whole seconds.
  public static func utc(_ date: Date) -> String {
    let seconds = Int(date.timeIntervalSince1970.rounded(.down))
    let day = Day(ordinal: Int((Double(seconds) / 86_400).rounded(.down)))
    let inDay = seconds - day.ordinal * 86_400
    return Self.date(day) + "T" + pad(inDay / 3600, 2) + pad(inDay / 60 % 60, 2) + pad(inDay % 60, 2) + "Z"
  }

  /// `YYYYMMDD`.
  public static func date(_ day: Day) -> String {
    pad(day.year, 4) + pad(day.month, 2) + pad(day.day, 2)
  }

  private static func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
