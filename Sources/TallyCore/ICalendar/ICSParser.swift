import Foundation

/// One VEVENT of an iCalendar (RFC 5545) feed: what episode imports need of it.
public struct ICSEvent: Hashable, Sendable {
  /// When the event starts: a date (`VALUE=DATE`) or an instant (UTC, a TZID's wall clock, or a
  /// floating time read in the zone the caller gives).
  public enum Start: Hashable, Sendable {
    case allDay(Day)
    case instant(Date)
  }

  public var uid: String?
  /// Unescaped (`\,` → `,`, `\n` → a new line).
  public var summary: String
  public var start: Start

  public init(uid: String?, summary: String, start: Start) {
    self.uid = uid
    self.summary = summary
    self.start = start
  }

  /// The event's day in `timeZone`: an all-day event's own date, or the wall-clock date of the
  /// instant there. The user's day-switch hour does not apply: an episode airs on the date a TV
  /// guide in the user's zone prints.
  public func day(in timeZone: TimeZone) -> Day {
    switch start {
    case .allDay(let day):
      return day
    case .instant(let date):
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = timeZone
      let parts = calendar.dateComponents([.year, .month, .day], from: date)
      return Day(year: parts.year!, month: parts.month!, day: parts.day!)!
    }
  }
}

/// Reads the events of an iCalendar text: CRLF, LF or CR line ends, folded lines, quoted
/// parameters, `TZID`, `VALUE=DATE`, UTC `Z` times and escaped text. Pure: no I/O, no clock.
///
/// Only what an episode import needs is read (UID, SUMMARY, DTSTART of each VEVENT); properties
/// of nested components such as VALARM are ignored, and so are VTIMEZONE definitions: a TZID is
/// looked up as an IANA name.
public enum ICSParser {
  /// Every VEVENT in order. Throws naming the line for anything it cannot read: a text that
  /// is not a calendar, an event without a start, a start that is not a date or time, or a
  /// TZID that names no zone.
  public static func events(in text: String, floatingTimeZone: TimeZone) throws(ValidationError)
    -> [ICSEvent]
  {
    let lines = unfoldedLines(text)
    guard lines.contains(where: { $0.text.uppercased() == "BEGIN:VCALENDAR" }) else {
      throw ValidationError(
        field: "calendar", rule: "must be an iCalendar file starting with BEGIN:VCALENDAR")
    }
    var events: [ICSEvent] = []
    var components: [String] = []
    var uid: String?
    var summary: String?
    var start: ICSEvent.Start?
    var eventLine = 0
    for line in lines where !line.text.isEmpty {
      let property = try ContentLine(line.text, lineNumber: line.number)
      switch property.name {
      case "BEGIN":
        components.append(property.value.uppercased())
        if property.value.uppercased() == "VEVENT" {
          (uid, summary, start, eventLine) = (nil, nil, nil, line.number)
        }
      case "END":
        guard components.popLast() == "VEVENT" else { continue }
        guard let start else {
          throw ValidationError(
            field: "calendar", rule: "has an event at line \(eventLine) without a DTSTART")
        }
        events.append(ICSEvent(uid: uid, summary: summary ?? "", start: start))
      default:
        guard components.last == "VEVENT" else { continue }
        switch property.name {
        case "UID": uid = unescaped(property.value)
        case "SUMMARY": summary = unescaped(property.value)
        case "DTSTART":
          start = try startValue(property, floatingTimeZone: floatingTimeZone, lineNumber: line.number)
        default: break
        }
      }
    }
    return events
  }

  // MARK: Lines

  /// Lines with their first physical line number; a line starting with a space or tab
  /// continues the one before it (RFC 5545 3.1), minus that one character.
  static func unfoldedLines(_ text: String) -> [(number: Int, text: String)] {
    let physical = text.replacingOccurrences(of: "\r\n", with: "\n")
      .replacingOccurrences(of: "\r", with: "\n")
      .split(separator: "\n", omittingEmptySubsequences: false)
    var lines: [(number: Int, text: String)] = []
    for (index, line) in physical.enumerated() {
      if let first = line.first, first == " " || first == "\t", !lines.isEmpty {
        lines[lines.count - 1].text += line.dropFirst()
      } else {
        lines.append((index + 1, String(line)))
      }
    }
    return lines
  }

  /// `NAME;PARAM=VALUE;PARAM="QUOTED:VALUE":value`
  struct ContentLine {
    var name: String
    var parameters: [String: String]
    var value: String

    init(_ text: String, lineNumber: Int) throws(ValidationError) {
      var inQuotes = false
      var colon: String.Index?
      for index in text.indices {
        let character = text[index]
        if character == "\"" { inQuotes.toggle() }
        if character == ":" && !inQuotes {
          colon = index
          break
        }
      }
      guard let colon else {
        throw ValidationError(
          field: "calendar", rule: "line \(lineNumber) is not NAME:VALUE: '\(text.prefix(60))'")
      }
      value = String(text[text.index(after: colon)...])
      var parts: [String] = []
      var current = ""
      inQuotes = false
      for character in text[..<colon] {
        if character == "\"" { inQuotes.toggle() }
        if character == ";" && !inQuotes {
          parts.append(current)
          current = ""
        } else {
          current.append(character)
        }
      }
      parts.append(current)
      name = parts[0].uppercased()
      parameters = [:]
      for part in parts.dropFirst() {
        let pair = part.split(separator: "=", maxSplits: 1)
        guard pair.count == 2 else { continue }
        var parameterValue = String(pair[1])
        if parameterValue.hasPrefix("\""), parameterValue.hasSuffix("\""), parameterValue.count >= 2 {
          parameterValue = String(parameterValue.dropFirst().dropLast())
        }
        parameters[pair[0].uppercased()] = parameterValue
      }
    }
  }

  /// RFC 5545 3.3.11 TEXT escapes.
  static func unescaped(_ text: String) -> String {
    var result = ""
    var escaping = false
    for character in text {
      if escaping {
        switch character {
        case "n", "N": result.append("\n")
        default: result.append(character)
        }
        escaping = false
      } else if character == "\\" {
        escaping = true
      } else {
        result.append(character)
      }
    }
    return result
  }

  // MARK: Dates and times

  private static func startValue(
    _ property: ContentLine, floatingTimeZone: TimeZone, lineNumber: Int
  ) throws(ValidationError) -> ICSEvent.Start {
    let value = property.value.trimmingCharacters(in: .whitespaces)
    let digits = Array(value.utf8)
    func number(_ range: Range<Int>) -> Int? {
      guard range.upperBound <= digits.count,
        digits[range].allSatisfy({ (48...57).contains($0) })
      else { return nil }
      return digits[range].reduce(0) { $0 * 10 + Int($1) - 48 }
    }
    let bad = ValidationError(
      field: "calendar",
      rule: "line \(lineNumber) has DTSTART '\(value)', which is not a date (20250902) or a time (20250902T020000Z)")
    guard let year = number(0..<4), let month = number(4..<6), let dayNumber = number(6..<8),
      let day = Day(year: year, month: month, day: dayNumber)
    else { throw bad }
    if property.parameters["VALUE"]?.uppercased() == "DATE" || digits.count == 8 {
      guard digits.count == 8 else { throw bad }
      return .allDay(day)
    }
    guard digits.count >= 15, digits[8] == UInt8(ascii: "T"), let hour = number(9..<11),
      let minute = number(11..<13), let second = number(13..<15), hour < 24, minute < 60, second < 61
    else { throw bad }
    let isUTC = digits.count == 16 && (digits[15] == UInt8(ascii: "Z") || digits[15] == UInt8(ascii: "z"))
    guard digits.count == 15 || isUTC else { throw bad }
    let zone: TimeZone
    if isUTC {
      zone = TimeZone(identifier: "UTC")!
    } else if let tzid = property.parameters["TZID"] {
      guard let named = timeZone(named: tzid) else {
        throw ValidationError(
          field: "calendar", rule: "line \(lineNumber) names the time zone '\(tzid)', which is not an IANA zone like Europe/Berlin")
      }
      zone = named
    } else {
      zone = floatingTimeZone
    }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    // A wall-clock time skipped by a DST change moves forward, as RFC 5545 3.3.5 asks.
    guard
      let date = calendar.date(
        from: DateComponents(year: year, month: month, day: dayNumber, hour: hour, minute: minute, second: min(second, 59)))
    else { throw bad }
    return .instant(date)
  }

  /// An IANA name, also when a calendar program prefixes it with its own path
  /// (`/mozilla.org/20070129_1/Europe/Berlin`).
  static func timeZone(named tzid: String) -> TimeZone? {
    if let zone = TimeZone(identifier: tzid) { return zone }
    let parts = tzid.split(separator: "/")
    for count in [3, 2, 1] where parts.count > count {
      if let zone = TimeZone(identifier: parts.suffix(count).joined(separator: "/")) { return zone }
    }
    return nil
  }
}
