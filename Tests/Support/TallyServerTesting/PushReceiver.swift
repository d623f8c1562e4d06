import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import JWTKit
import NIOCore
import TallyCore
import TallyHTTP
import TallyPush
import TallyStore
import Testing

/// A push service on loopback for the tests. The path says how it answers: `…/gone/…` 410,
/// `…/missing/…` 404, `…/fail/…` 500, `…/hang/…` not for 30 seconds, anything else 201.
/// It records every POST with the instant it arrived.
package final class PushReceiver: @unchecked Sendable {
  package struct Received {
    package var path: String
    package var headers: [String: String]
    package var body: Data
    package var arrived: Date
  }

  private let lock = NSLock()
  private var received: [Received] = []
  private var released = false

  package var requests: [Received] { lock.withLock { received } }

  package static func listening<T: Sendable>(_ body: @Sendable (_ base: String, _ receiver: PushReceiver) async throws -> T) async throws -> T {
    let receiver = PushReceiver()
    let router = Router()
    router.post("**") { request, _ -> Response in
      let bytes = try await request.body.collect(upTo: 1 << 16)
      var headers: [String: String] = [:]
      for field in request.headers { headers[field.name.canonicalName] = field.value }
      let path = request.uri.path
      receiver.lock.withLock {
        receiver.received.append(Received(path: path, headers: headers, body: Data(bytes.readableBytesView), arrived: Date()))
      }
      while path.contains("/hang/"), !receiver.lock.withLock({ receiver.released }) {
        try await Task.sleep(for: .milliseconds(50))
      }
      let status: HTTPResponse.Status =
        path.contains("/gone/") ? .gone : path.contains("/missing/") ? .notFound
        : path.contains("/fail/") ? .internalServerError : .created
      return Response(status: status)
    }
    let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    return try await app.test(.live) { client in
      // Hanging requests end with the test, so the server can stop.
      defer { receiver.lock.withLock { receiver.released = true } }
      return try await body("http://127.0.0.1:\(try #require(client.port))", receiver)
    }
  }
}

/// A browser's side of one subscription: its keys, the JSON it would send, and decryption.
package struct TestBrowser {
  package let key = P256.KeyAgreement.PrivateKey()
  package let auth = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
  package let endpoint: String

  package init(endpoint: String) {
    self.endpoint = endpoint
  }

  package var json: [String: Any] {
    ["endpoint": endpoint, "keys": ["p256dh": Base64URL.encode(key.publicKey.x963Representation), "auth": Base64URL.encode(auth)]]
  }

  package func subscription(name: String = "Phone", createdAt: Date) throws -> PushSubscription {
    try PushSubscription(
      id: UUID(), endpoint: endpoint, p256dh: key.publicKey.x963Representation, auth: auth, name: name, createdAt: createdAt)
  }

  /// RFC 8188 §2 from the receiving end; the payload as JSON.
  package func open(_ body: Data) throws -> [String: Any] {
    let salt = body.prefix(16)
    let idLength = Int(body[body.startIndex + 20])
    let senderPublic = body.subdata(in: (body.startIndex + 21)..<(body.startIndex + 21 + idLength))
    let sealed = body.suffix(from: body.startIndex + 21 + idLength)
    let shared = try key.sharedSecretFromKeyAgreement(with: P256.KeyAgreement.PublicKey(x963Representation: senderPublic))
    let info = Data("WebPush: info".utf8) + [0] + key.publicKey.x963Representation + senderPublic
    let ikm = shared.hkdfDerivedSymmetricKey(using: SHA256.self, salt: auth, sharedInfo: info, outputByteCount: 32)
    let cek = HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, salt: salt, info: Data("Content-Encoding: aes128gcm".utf8) + [0], outputByteCount: 16)
    let nonce = HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, salt: salt, info: Data("Content-Encoding: nonce".utf8) + [0], outputByteCount: 12)
    let box = try AES.GCM.SealedBox(
      nonce: AES.GCM.Nonce(data: nonce.withUnsafeBytes { Data($0) }), ciphertext: sealed.dropLast(16), tag: sealed.suffix(16))
    let record = try AES.GCM.open(box, using: cek)
    #expect(record.last == 0x02, "one record, ended by the last-record delimiter")
    return try JSONSerialization.jsonObject(with: record.dropLast()) as? [String: Any] ?? [:]
  }
}

/// Checks a VAPID header as a push service would: the key is the server's, the token is
/// signed by it for this origin and expires within a day.
package func expectVAPID(_ header: String?, publicKey: String, origin: String, now: Date) async throws {
  let header = try #require(header)
  #expect(header.hasPrefix("vapid t="))
  let fields = Dictionary(
    uniqueKeysWithValues: header.dropFirst("vapid ".count).split(separator: ",").map { part in
      let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
      return (String(pair[0]), String(pair[1]))
    })
  #expect(fields["k"] == publicKey)
  let key = try P256.Signing.PublicKey(x963Representation: try #require(Base64URL.decode(publicKey)))
  let verifier = JWTKeyCollection()
  await verifier.add(ecdsa: try ES256PublicKey(backing: key))
  struct Claims: JWTPayload {
    var aud: AudienceClaim
    var exp: ExpirationClaim
    var sub: SubjectClaim
    func verify(using algorithm: some JWTAlgorithm) async throws {}
  }
  let claims = try await verifier.verify(try #require(fields["t"]), as: Claims.self)
  #expect(claims.aud.value == [origin])
  #expect(claims.exp.value > now && claims.exp.value <= now.addingTimeInterval(86_400))
}
