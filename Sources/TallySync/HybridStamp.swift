import Foundation

/// A hybrid logical clock stamp (SPEC 11): wall-clock milliseconds, a counter for events in
/// the same millisecond (or while the wall clock lags a stamp already seen), and the device.
///
/// Stamps order by (milliseconds, counter, device), and their text sorts the same way, so a
/// database compares them as text: `0001764000000000-00000000-<device uuid>`.
public struct HybridStamp: Hashable, Sendable, Comparable, CustomStringConvertible {
  public let milliseconds: Int64
  public let counter: Int
  public let device: UUID
  /// The stamp as stored and sent; its order is the stamp's order.
  public let text: String

  /// Stamps are written with 16 decimal digits of milliseconds and 8 hex digits of counter.
  public static let maxMilliseconds: Int64 = 9_999_999_999_999_999
  public static let maxCounter = 0xFFFF_FFFF

  public init(milliseconds: Int64, counter: Int, device: UUID) {
    precondition((0...Self.maxMilliseconds).contains(milliseconds), "stamp milliseconds out of range")
    precondition((0...Self.maxCounter).contains(counter), "stamp counter out of range")
    self.milliseconds = milliseconds
    self.counter = counter
    self.device = device
    let ms = String(milliseconds)
    let count = String(counter, radix: 16)
    text =
      String(repeating: "0", count: 16 - ms.count) + ms + "-"
      + String(repeating: "0", count: 8 - count.count) + count + "-"
      + device.uuidString.lowercased()
  }

  /// Reads a stamp's text, refusing anything that is not exactly the written form. Checks
  /// bytes and keeps the text as given (it is the written form): a first pull reads a
  /// stamp per change.
  public init?(_ text: String) {
    var text = text
    guard
      let parsed = text.withUTF8({ bytes -> (Int64, Int, UUID)? in
        guard bytes.count == 62, bytes[16] == UInt8(ascii: "-"), bytes[25] == UInt8(ascii: "-") else { return nil }
        var milliseconds: Int64 = 0
        for byte in bytes[0..<16] {
          guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
          milliseconds = milliseconds * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        var counter = 0
        for byte in bytes[17..<25] {
          switch byte {
          case UInt8(ascii: "0")...UInt8(ascii: "9"): counter = counter << 4 | Int(byte - UInt8(ascii: "0"))
          case UInt8(ascii: "a")...UInt8(ascii: "f"): counter = counter << 4 | Int(byte - UInt8(ascii: "a") + 10)
          default: return nil
          }
        }
        guard let uuid = LowerCaseUUID.read(UnsafeBufferPointer(rebasing: bytes[26...])) else { return nil }
        return (milliseconds, counter, uuid)
      })
    else { return nil }
    self.milliseconds = parsed.0
    counter = parsed.1
    device = parsed.2
    self.text = text
  }


  /// What every row that predates sync is stamped with: it loses to any real change.
  public static func genesis(_ device: UUID) -> HybridStamp {
    HybridStamp(milliseconds: 0, counter: 0, device: device)
  }

  public var instant: Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }

  public var description: String { text }

  public static func < (a: HybridStamp, b: HybridStamp) -> Bool { a.text < b.text }
}

extension HybridStamp: Codable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let stamp = HybridStamp(text) else {
      throw DecodingError.dataCorruptedError(
        in: container,
        debugDescription:
          "'\(text)' is not a stamp: 16 digits of milliseconds, 8 lower-case hex digits of counter and a lower-case device UUID, joined by '-'"
      )
    }
    self = stamp
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(text)
  }
}

/// The hybrid logical clock's two rules, pure: the caller keeps the latest stamp and the time.
public enum HybridClock {
  /// The stamp for a new local event: later than `latest` (every stamp this replica has made
  /// or seen) and than the wall clock, so a replica never runs behind what it has seen.
  public static func tick(latest: HybridStamp?, now: Date, device: UUID) -> HybridStamp {
    let wall = min(max(0, Int64((now.timeIntervalSince1970 * 1000).rounded())), HybridStamp.maxMilliseconds)
    guard let latest, latest.milliseconds >= wall else {
      return HybridStamp(milliseconds: wall, counter: 0, device: device)
    }
    if latest.counter < HybridStamp.maxCounter {
      return HybridStamp(milliseconds: latest.milliseconds, counter: latest.counter + 1, device: device)
    }
    return HybridStamp(milliseconds: latest.milliseconds + 1, counter: 0, device: device)
  }

  /// The latest stamp after seeing `received`: a replica's next tick comes after it.
  public static func seen(_ received: HybridStamp, latest: HybridStamp?) -> HybridStamp {
    guard let latest else { return received }
    return max(latest, received)
  }
}
