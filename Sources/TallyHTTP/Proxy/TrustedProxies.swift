import Foundation

/// The reverse proxies whose forwarding headers Tally believes (`--trusted-proxy`).
///
/// `X-Forwarded-For`, `X-Forwarded-Proto` and a trusted user header are only as honest as
/// whoever sent them. A connection from one of these addresses is a proxy that sets them;
/// from anywhere else they are a client's claim, and are ignored (docs/deploy.md).
public struct TrustedProxies: Sendable, Equatable {
  public var networks: [IPNetwork]

  public init(_ networks: [IPNetwork] = []) {
    self.networks = networks
  }

  /// Loopback and the private ranges (RFC 1918, RFC 4193), where container networks live:
  /// what `--trusted-proxy private` names.
  public static let privateRanges = [
    "127.0.0.0/8", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "::1/128", "fc00::/7",
  ].compactMap { IPNetwork($0) }

  /// Reads addresses and ranges separated by commas or spaces, each `ADDRESS`,
  /// `ADDRESS/BITS` or `private`; throws ``Invalid`` naming the first that is none of them.
  public init(parsing texts: [String]) throws(Invalid) {
    var networks: [IPNetwork] = []
    for text in texts {
      for item in text.split(whereSeparator: { $0 == "," || $0.isWhitespace }) {
        if item == "private" {
          networks += Self.privateRanges
        } else if let network = IPNetwork(item) {
          networks.append(network)
        } else {
          throw Invalid(text: String(item))
        }
      }
    }
    self.init(networks)
  }

  /// An entry that is not an address, a range or `private`.
  public struct Invalid: Error, Sendable, Equatable {
    public let text: String
  }

  public var isEmpty: Bool { networks.isEmpty }

  public func contains(_ address: IPAddress) -> Bool {
    networks.contains { $0.contains(address) }
  }

  /// Who sent a request that came over a connection from `peer`, carrying these
  /// `X-Forwarded-For` field values and this `X-Forwarded-Proto`.
  ///
  /// From an untrusted peer, the peer is the client and the headers are ignored. From a
  /// trusted one, the client is the right-most forwarded address that is not itself a trusted
  /// proxy (every proxy appends the address it was reached from, so only the ones a trusted
  /// proxy wrote can be believed); a malformed address ends the walk at the proxy that
  /// forwarded it.
  public func client(peer: IPAddress?, forwardedFor: [String], forwardedProto: String?) -> ForwardedClient {
    guard let peer, contains(peer) else {
      return ForwardedClient(address: peer?.description ?? "unknown", overHTTPS: false, viaTrustedProxy: false)
    }
    var client = peer
    let hops = forwardedFor.flatMap { $0.split(separator: ",") }
    for hop in hops.reversed() {
      guard let address = Self.forwardedAddress(hop.trimmingCharacters(in: .whitespaces)) else { break }
      client = address
      if !contains(address) { break }
    }
    // The first proxy writes the scheme the person used; later ones pass it on.
    let scheme = forwardedProto?.split(separator: ",").first?.trimmingCharacters(in: .whitespaces).lowercased()
    return ForwardedClient(address: client.description, overHTTPS: scheme == "https", viaTrustedProxy: true)
  }
}

extension TrustedProxies {
  /// An `X-Forwarded-For` entry: an address, or one with the client's port as some proxies
  /// write it (`192.0.2.7:51234`, `[2001:db8::7]:51234`).
  package static func forwardedAddress(_ text: String) -> IPAddress? {
    if let address = IPAddress(text) { return address }
    guard let colon = text.lastIndex(of: ":"), text[text.index(after: colon)...].allSatisfy(\.isASCII),
      let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port)
    else { return nil }
    let host = text[..<colon]
    // Bare IPv6 has colons of its own: only a bracketed one can carry a port.
    guard host.hasPrefix("[") || !host.contains(":") else { return nil }
    return IPAddress(host)
  }
}

/// Who a request is from, as far as Tally can tell.
public struct ForwardedClient: Sendable, Equatable {
  /// The client's IP address as text; "unknown" when the connection has none (tests).
  public var address: String
  /// A trusted proxy says the person reached it over HTTPS.
  public var overHTTPS: Bool
  /// The connection comes from a trusted proxy, so its user header may be believed.
  public var viaTrustedProxy: Bool
}
