import Foundation
import TallyCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the server agrees to POST push messages: a push service is a public https host, so
/// an endpoint on loopback, a private or link-local network, or plain http is refused. That
/// keeps a subscription from turning the server into a way to reach its own network.
/// `--allow-loopback-push` lets loopback (http or https) through for a local test stand-in.
///
/// Names are checked as written, not resolved: a public name that resolves to a private
/// address is not caught here (docs/reminders.md).
public struct PushEndpointPolicy: Sendable {
  public var allowLoopback: Bool

  public init(allowLoopback: Bool) {
    self.allowLoopback = allowLoopback
  }

  /// `nil` when the endpoint may be used, else what is wrong, completing "The endpoint …".
  public func refusal(_ url: URL) -> String? {
    guard let scheme = url.scheme?.lowercased(), var host = url.host?.lowercased(), !host.isEmpty else {
      return "must be an https:// address with a host"
    }
    if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    if host.hasSuffix(".") { host.removeLast() }
    let kind = Self.kind(of: host)
    if kind == .loopback && allowLoopback { return scheme == "http" || scheme == "https" ? nil : "must be http or https" }
    guard scheme == "https" else { return "must use https://, not \(scheme)://" }
    switch kind {
    case .public: return nil
    case .loopback: return "is on a loopback address (\(host)); push services are public hosts"
    case .private: return "is on a private or link-local address (\(host)); push services are public hosts"
    case .notPublicName: return "host '\(host)' is not a public host name"
    }
  }

  enum Kind: Equatable {
    case `public`, loopback, `private`, notPublicName
  }

  static func kind(of host: String) -> Kind {
    if let v4 = ipv4(host) { return kind(ofIPv4: v4) }
    if host.contains(":") {
      guard let v6 = ipv6(host) else { return .notPublicName }
      return kind(ofIPv6: v6)
    }
    let labels = host.split(separator: ".", omittingEmptySubsequences: false)
    if host == "localhost" || host.hasSuffix(".localhost") { return .loopback }
    // A single label, a special-use suffix, or a numeric last label (which resolvers may read
    // as an IPv4 address in another notation, 0x7f.1) is not a public name.
    guard labels.count >= 2, !labels.contains(where: \.isEmpty),
      let last = labels.last, last.contains(where: \.isLetter), !last.hasPrefix("0x"),
      !["local", "internal", "lan", "home.arpa", "arpa"].contains(where: { host == $0 || host.hasSuffix("." + $0) })
    else { return .notPublicName }
    return .public
  }

  /// Dotted decimal only: other notations are refused as names above.
  static func ipv4(_ host: String) -> [UInt8]? {
    let parts = host.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 4 else { return nil }
    let bytes = parts.compactMap { part -> UInt8? in
      guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isASCII), part.allSatisfy(\.isNumber) else { return nil }
      return UInt8(part)
    }
    return bytes.count == 4 ? bytes : nil
  }

  static func kind(ofIPv4 b: [UInt8]) -> Kind {
    switch (b[0], b[1]) {
    case (127, _): .loopback
    case (0, _), (10, _), (169, 254), (192, 168): .private
    case (172, 16...31), (100, 64...127), (198, 18...19): .private
    case (224..., _): .private  // multicast, reserved, broadcast
    default: .public
    }
  }

  static func ipv6(_ host: String) -> [UInt8]? {
    var address = in6_addr()
    guard inet_pton(AF_INET6, host, &address) == 1 else { return nil }
    return withUnsafeBytes(of: &address) { Array($0) }
  }

  static func kind(ofIPv6 b: [UInt8]) -> Kind {
    if b == Array(repeating: 0, count: 15) + [1] { return .loopback }
    if b.allSatisfy({ $0 == 0 }) { return .private }
    // ::ffff:a.b.c.d is an IPv4 address.
    if b.prefix(10).allSatisfy({ $0 == 0 }) && b[10] == 0xff && b[11] == 0xff { return kind(ofIPv4: Array(b.suffix(4))) }
    if b[0] & 0xfe == 0xfc { return .private }  // fc00::/7, unique local
    if b[0] == 0xfe && b[1] & 0xc0 == 0x80 { return .private }  // fe80::/10, link-local
    if b[0] == 0xff { return .private }  // multicast
    return .public
  }
}
