import PropertyBased
import TallyHTTP
import TallyServer
import TallyServerTesting
import Testing

@Suite struct TrustedProxiesTests {
  @Test(arguments: [
    ("192.0.2.1", "192.0.2.1"), ("::ffff:192.0.2.1", "192.0.2.1"), ("[2001:db8::1]", "2001:db8::1"),
    ("2001:DB8:0:0:0:0:0:1", "2001:db8::1"), ("::1", "::1"),
  ])
  func addressesAreReadAsTheirBytes(text: String, printed: String) throws {
    let address = try #require(IPAddress(text))
    #expect(address.description == printed)
    #expect(IPAddress(printed) == address)
  }

  @Test(arguments: ["", "1.2.3", "256.1.1.1", "example.org", "1.2.3.4:80", "fe80::1%eth0", "[1.2.3.4", " 1.2.3.4"])
  func anythingElseIsNoAddress(text: String) {
    #expect(IPAddress(text) == nil)
  }

  @Test func rangesHoldTheAddressesTheirPrefixNames() throws {
    let tenNet = try #require(IPNetwork("10.0.0.0/8"))
    #expect(tenNet.contains(IPAddress("10.255.0.1")!))
    #expect(!tenNet.contains(IPAddress("11.0.0.1")!))
    #expect(!tenNet.contains(IPAddress("::ffff:11.0.0.1")!))
    #expect(tenNet.contains(IPAddress("::ffff:10.0.0.1")!))
    let one = try #require(IPNetwork("::1"))
    #expect(one.prefixLength == 128)
    #expect(!one.contains(IPAddress("::2")!))
    let everything = try #require(IPNetwork("0.0.0.0/0"))
    #expect(everything.contains(IPAddress("203.0.113.9")!))
    #expect(!everything.contains(IPAddress("2001:db8::1")!))
  }

  @Test(arguments: ["10.0.0.1/8", "10.0.0.0/33", "10.0.0.0/-1", "10.0.0.0/+8", "10.0.0.0/ 8", "10.0.0.0/", "fd00::/129"])
  func aRangeThatDoesNotSayWhatItMeansIsRefused(text: String) {
    #expect(IPNetwork(text) == nil)
  }

  /// Against the slow rule: an address is in a range when its first `bits` bits, written out
  /// one by one, are the range's.
  @Test func containsAgreesWithComparingBitByBit() async {
    await propertyCheck(
      count: 2000, input: Gen.int(in: 0...Int(UInt32.max)), Gen.int(in: 0...Int(UInt32.max)), Gen.int(in: 0...32)
    ) { base, other, bits in
      func bitString(_ value: Int) -> String {
        String((0..<32).map { (value >> (31 - $0)) & 1 == 1 ? "1" : "0" })
      }
      func dotted(_ value: Int) -> String {
        [24, 16, 8, 0].map { String((value >> $0) & 0xFF) }.joined(separator: ".")
      }
      let masked = bits == 0 ? 0 : base & ~((1 << (32 - bits)) - 1) & Int(UInt32.max)
      guard let network = IPNetwork("\(dotted(masked))/\(bits)"), let address = IPAddress(dotted(other)) else {
        Issue.record("\(dotted(masked))/\(bits) or \(dotted(other)) did not parse")
        return
      }
      #expect(network.contains(address) == (bitString(masked).prefix(bits) == bitString(other).prefix(bits)))
    }
  }

  @Test func aListNamesAddressesRangesAndPrivate() throws {
    let proxies = try TrustedProxies(parsing: ["10.0.0.0/8, 192.168.1.2", "fd00::/8 private"])
    #expect(proxies.networks.count == 3 + TrustedProxies.privateRanges.count)
    #expect(proxies.contains(IPAddress("127.0.0.9")!))
    #expect(!proxies.contains(IPAddress("203.0.113.9")!))
    do {
      _ = try TrustedProxies(parsing: ["10.0.0.0/8,proxy.example"])
      Issue.record("a host name was taken for an address")
    } catch {
      #expect(error.text == "proxy.example")
    }
    #expect(try TrustedProxies(parsing: [""]).isEmpty)
  }

  static let caddy = IPAddress("172.18.0.2")!
  static let proxies = TrustedProxies([IPNetwork("172.18.0.0/16")!, IPNetwork("10.0.0.1")!])

  @Test func anUntrustedPeerIsTheClientWhateverItClaims() {
    let client = Self.proxies.client(
      peer: IPAddress("198.51.100.7"), forwardedFor: ["203.0.113.9"], forwardedProto: "https")
    #expect(client.address == "198.51.100.7")
    #expect(!client.overHTTPS && !client.viaTrustedProxy)
    #expect(Self.proxies.client(peer: nil, forwardedFor: ["203.0.113.9"], forwardedProto: nil).address == "unknown")
  }

  @Test(arguments: [
    // The proxy's own peer, written by the proxy.
    (["203.0.113.9"], "203.0.113.9"),
    // A client's forged entry sits left of what the proxy appended, and is not read.
    (["1.1.1.1, 203.0.113.9"], "203.0.113.9"),
    // A chain of trusted proxies is walked through, one header field or several.
    (["203.0.113.9, 10.0.0.1"], "203.0.113.9"),
    (["1.1.1.1, 203.0.113.9", "10.0.0.1, 172.18.0.3"], "203.0.113.9"),
    // Every hop trusted: the left-most is the client.
    (["172.18.0.7, 10.0.0.1"], "172.18.0.7"),
    // Garbage stops the walk at the proxy that forwarded it.
    (["203.0.113.9, unknown"], "172.18.0.2"),
    (["203.0.113.9, unknown, 10.0.0.1"], "10.0.0.1"),
    ([], "172.18.0.2"),
    (["[2001:db8::7]"], "2001:db8::7"),
    // Some proxies write the client's port too.
    (["203.0.113.9:51234"], "203.0.113.9"),
    (["[2001:db8::7]:443, 10.0.0.1:8080"], "2001:db8::7"),
    // A bare IPv6 address whose last group looks like a port is the address, not a port.
    (["2001:db8::7:443"], "2001:db8::7:443"),
    (["203.0.113.9:99999"], "172.18.0.2"),
  ])
  func aTrustedProxyNamesTheRightMostAddressItDidNotWrite(forwardedFor: [String], client: String) {
    let found = Self.proxies.client(peer: Self.caddy, forwardedFor: forwardedFor, forwardedProto: nil)
    #expect(found.address == client)
    #expect(found.viaTrustedProxy && !found.overHTTPS)
  }

  @Test func theSchemeIsTheOneTheFirstProxySaw() {
    func scheme(_ text: String?) -> Bool {
      Self.proxies.client(peer: Self.caddy, forwardedFor: [], forwardedProto: text).overHTTPS
    }
    #expect(scheme("https"))
    #expect(scheme("HTTPS"))
    #expect(scheme("https, http"))
    #expect(!scheme("http, https"))
    #expect(!scheme("http"))
    #expect(!scheme(nil))
  }
}
