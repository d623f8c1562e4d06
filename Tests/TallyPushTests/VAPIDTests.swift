import Crypto
import Foundation
import JWTKit
import Testing

@testable import TallyPush

@Suite struct VAPIDTests {
  @Test func theHeaderCarriesASignedTokenForTheEndpointsOrigin() async throws {
    let key = VAPIDKey()
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let header = try await key.authorization(
      for: URL(string: "https://push.example.net:8443/wpush/v2/abc?x=1")!, subject: "mailto:ops@example.org", now: now)
    let parts = header.split(separator: " ", maxSplits: 1)
    #expect(parts.first == "vapid")
    let fields = Dictionary(
      uniqueKeysWithValues: parts[1].split(separator: ",").map { part in
        let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
        return (String(pair[0]), String(pair[1]))
      })
    #expect(fields["k"] == key.publicKeyText)
    #expect(bytes(fields["k"]!).count == 65)

    let verifier = JWTKeyCollection()
    await verifier.add(ecdsa: try ES256PublicKey(backing: key.privateKey.publicKey))
    let claims = try await verifier.verify(fields["t"]!, as: VAPIDKey.Claims.self)
    #expect(claims.aud.value == ["https://push.example.net:8443"])
    #expect(claims.sub.value == "mailto:ops@example.org")
    #expect(claims.exp.value.timeIntervalSince(now) == 43_200)
    // The header is JWT/ES256 and `aud` is a string, not a one-element array.
    let segments = fields["t"]!.split(separator: ".").map { bytes(String($0)) }
    let head = try JSONSerialization.jsonObject(with: segments[0]) as! [String: Any]
    #expect(head["alg"] as? String == "ES256")
    #expect(head["typ"] as? String == "JWT")
    let body = try JSONSerialization.jsonObject(with: segments[1]) as! [String: Any]
    #expect(body["aud"] as? String == "https://push.example.net:8443")
    #expect(segments[2].count == 64, "ES256 signs with r‖s, 64 bytes")
  }

  @Test func theLifetimeNeverPassesADay() async throws {
    let key = VAPIDKey()
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let header = try await key.authorization(
      for: URL(string: "https://push.example.net/x")!, subject: "https://tally.example", now: now, lifetime: 7 * 86_400)
    let token = String(header.split(separator: "t=")[1].split(separator: ",")[0])
    let body = try JSONSerialization.jsonObject(with: bytes(String(token.split(separator: ".")[1]))) as! [String: Any]
    #expect(body["exp"] as? Int == 1_800_086_400)
  }

  @Test func aKeyRoundTripsThroughItsRawBytes() throws {
    let key = VAPIDKey()
    let again = try VAPIDKey(rawRepresentation: key.rawRepresentation)
    #expect(again.publicKeyText == key.publicKeyText)
    #expect(throws: (any Error).self) { try VAPIDKey(rawRepresentation: Data(count: 5)) }
  }

  @Test func origins() {
    #expect(VAPIDKey.origin(of: URL(string: "https://FCM.googleapis.com/fcm/send/x")!) == "https://fcm.googleapis.com")
    #expect(VAPIDKey.origin(of: URL(string: "https://h:443/p")!) == "https://h")
    #expect(VAPIDKey.origin(of: URL(string: "http://127.0.0.1:9000/p")!) == "http://127.0.0.1:9000")
  }

  @Test func aRequestHasTheRFC8030Headers() async throws {
    let subscriber = P256.KeyAgreement.PrivateKey()
    let request = try await PushRequest.make(
      payload: Data("{}".utf8), endpoint: URL(string: "https://push.example.net/x")!,
      subscriberKey: subscriber.publicKey.x963Representation, authSecret: Data(count: 16), vapid: VAPIDKey(),
      subject: "mailto:a@b.c", now: Date(), ttl: 600, urgency: .high)
    #expect(request.headers["Content-Encoding"] == "aes128gcm")
    #expect(request.headers["TTL"] == "600")
    #expect(request.headers["Urgency"] == "high")
    #expect(request.headers["Authorization"]?.hasPrefix("vapid t=") == true)
    #expect(try TestDecryption.decrypt(request.body, subscriber: subscriber, authSecret: Data(count: 16)) == Data("{}".utf8))
  }
}
