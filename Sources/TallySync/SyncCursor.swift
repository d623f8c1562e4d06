import Foundation
import TallyCore
import TallyStore

/// Where a device is in an account's change feed: the last position it has, bound to the
/// account and the server database so a cursor cannot be used elsewhere by mistake.
/// Clients treat its text as opaque.
public struct SyncCursor: Hashable, Sendable, CustomStringConvertible {
  public var position: Int64
  public var user: UUID
  public var server: UUID

  public init(position: Int64, user: UUID, server: UUID) {
    self.position = position
    self.user = user
    self.server = server
  }

  public var description: String { "\(position):\(user.storeText):\(server.storeText)" }

  public init?(_ text: String) {
    var text = text
    if let cursor = text.withUTF8(Self.asWritten) {
      self = cursor
      return
    }
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count <= 18, parts[0].allSatisfy({ $0.isASCII && $0.isNumber }),
      let position = Int64(parts[0]),
      let user = UUID(uuidString: String(parts[1])), let server = UUID(uuidString: String(parts[2]))
    else { return nil }
    self.init(position: position, user: user, server: server)
  }

  /// A cursor exactly as ``description`` writes it, read byte by byte: every poll sends one, and
  /// splitting it and reading its ids through Foundation was 3 % of an empty poll's server
  /// time. Anything else (upper-case ids, a bad cursor) is left to the general reading.
  private static func asWritten(_ bytes: UnsafeBufferPointer<UInt8>) -> SyncCursor? {
    guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), (1...18).contains(colon),
      bytes.count == colon + 74, bytes[colon + 37] == UInt8(ascii: ":")
    else { return nil }
    var position: Int64 = 0
    for byte in bytes[..<colon] {
      guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
      position = position * 10 + Int64(byte - UInt8(ascii: "0"))
    }
    guard let user = LowerCaseUUID.read(UnsafeBufferPointer(rebasing: bytes[(colon + 1)..<(colon + 37)])),
      let server = LowerCaseUUID.read(UnsafeBufferPointer(rebasing: bytes[(colon + 38)...]))
    else { return nil }
    return SyncCursor(position: position, user: user, server: server)
  }

  /// The position a request's cursor asks for, refusing one that is malformed or from another
  /// account or server. No cursor is the start.
  public static func position(_ text: String?, user: UUID, server: UUID) throws(ValidationError) -> Int64 {
    guard let text, !text.isEmpty else { return 0 }
    guard let cursor = SyncCursor(text) else {
      throw ValidationError(field: "cursor", rule: "'\(text)' is not a cursor this server gave out")
    }
    guard cursor.user == user, cursor.server == server else {
      throw ValidationError(
        field: "cursor",
        rule: "belongs to another account or another server; start again without a cursor")
    }
    return cursor.position
  }
}
