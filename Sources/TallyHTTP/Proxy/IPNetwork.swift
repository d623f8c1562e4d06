#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An IP address as its bytes: 4 for IPv4, 16 for IPv6. An IPv4 address written as IPv6
/// (`::ffff:192.0.2.1`, what a dual-stack socket reports) is read as the IPv4 address, so one
/// rule covers a client however the listener saw it.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
  public let bytes: [UInt8]

  /// Parses `192.0.2.1`, `2001:db8::1`, or `[2001:db8::1]` as `X-Forwarded-For` may write it.
  /// Anything else (a host name, a port, a zone) is no address.
  public init?(_ text: some StringProtocol) {
    var text = String(text)
    if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
    var v4 = in_addr()
    var v6 = in6_addr()
    if inet_pton(AF_INET, text, &v4) == 1 {
      bytes = withUnsafeBytes(of: &v4) { Array($0) }
    } else if inet_pton(AF_INET6, text, &v6) == 1 {
      let all = withUnsafeBytes(of: &v6) { Array($0) }
      bytes = all[0..<12].elementsEqual(Self.mappedPrefix) ? Array(all[12...]) : all
    } else {
      return nil
    }
  }

  private static let mappedPrefix: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]

  public var isIPv4: Bool { bytes.count == 4 }

  public var description: String {
    var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
    bytes.withUnsafeBytes { raw in
      _ = inet_ntop(isIPv4 ? AF_INET : AF_INET6, raw.baseAddress, &buffer, socklen_t(buffer.count))
    }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}

/// A range of addresses: `10.0.0.0/8`, `fd00::/8`, or one address (`127.0.0.1`, a /32 or /128).
public struct IPNetwork: Sendable, Hashable, CustomStringConvertible {
  public let address: IPAddress
  public let prefixLength: Int

  /// Parses `ADDRESS` or `ADDRESS/BITS`. Bits past the prefix must be zero (`10.0.0.1/8` is
  /// refused): a written range that does not say what it means is more likely a typo.
  public init?(_ text: some StringProtocol) {
    let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
    guard let address = IPAddress(parts[0]) else { return nil }
    let width = address.bytes.count * 8
    var length = width
    if parts.count == 2 {
      guard let bits = Int(parts[1]), (0...width).contains(bits), parts[1].allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
      length = bits
    }
    guard Self.masked(address.bytes, length) == address.bytes else { return nil }
    self.address = address
    prefixLength = length
  }

  public func contains(_ other: IPAddress) -> Bool {
    other.bytes.count == address.bytes.count && Self.masked(other.bytes, prefixLength) == address.bytes
  }

  public var description: String { "\(address)/\(prefixLength)" }

  /// `bytes` with every bit after the first `length` cleared.
  private static func masked(_ bytes: [UInt8], _ length: Int) -> [UInt8] {
    bytes.enumerated().map { index, byte in
      let kept = min(8, max(0, length - index * 8))
      return kept == 8 ? byte : byte & ~(0xFF >> kept)
    }
  }
}
