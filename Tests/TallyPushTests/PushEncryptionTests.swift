import Crypto
import Foundation
import TallyCore
import Testing

@testable import TallyPush

/// RFC 8291 §5 (and Appendix A): every input of the example, and the body it gives.
enum RFC8291Example {
  static let plaintext = Data("When I grow up, I want to be a watermelon".utf8)
  static let senderPrivate = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
  static let senderPublic = "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
  static let subscriberPrivate = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
  static let subscriberPublic = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
  static let authSecret = "BTBZMqHH6r4Tts7J_aSIgg"
  static let salt = "DGv6ra1nlYgDCS1FRnbzlw"
  static let body =
    "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_"
    + "yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
}

func bytes(_ text: String) -> Data { Base64URL.decode(text)! }

@Suite struct PushEncryptionTests {
  @Test func theRFCExampleByteForByte() throws {
    let sender = try P256.KeyAgreement.PrivateKey(rawRepresentation: bytes(RFC8291Example.senderPrivate))
    #expect(Base64URL.encode(sender.publicKey.x963Representation) == RFC8291Example.senderPublic)
    let body = try PushEncryption.encrypt(
      RFC8291Example.plaintext, subscriberKey: bytes(RFC8291Example.subscriberPublic),
      authSecret: bytes(RFC8291Example.authSecret), salt: bytes(RFC8291Example.salt), senderKey: sender)
    #expect(Base64URL.encode(body) == RFC8291Example.body)
  }

  @Test func theSubscriberDecryptsARandomMessage() throws {
    let subscriber = P256.KeyAgreement.PrivateKey()
    let auth = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
    let message = Data("{\"title\":\"Read\"}".utf8)
    let body = try PushEncryption.encrypt(message, subscriberKey: subscriber.publicKey.x963Representation, authSecret: auth)
    #expect(try TestDecryption.decrypt(body, subscriber: subscriber, authSecret: auth) == message)
    let again = try PushEncryption.encrypt(message, subscriberKey: subscriber.publicKey.x963Representation, authSecret: auth)
    #expect(again.prefix(16) != body.prefix(16), "each message has its own salt")
  }

  @Test func theRFCBodyDecryptsWithTheSubscribersKey() throws {
    let subscriber = try P256.KeyAgreement.PrivateKey(rawRepresentation: bytes(RFC8291Example.subscriberPrivate))
    let plaintext = try TestDecryption.decrypt(
      bytes(RFC8291Example.body), subscriber: subscriber, authSecret: bytes(RFC8291Example.authSecret))
    #expect(plaintext == RFC8291Example.plaintext)
  }

  @Test func badKeysAndLongMessagesAreRefused() {
    let key = P256.KeyAgreement.PrivateKey().publicKey.x963Representation
    let auth = Data(count: 16)
    #expect(throws: PushEncryption.Failure.badSubscriberKey) {
      try PushEncryption.encrypt(Data("x".utf8), subscriberKey: key.prefix(33), authSecret: auth)
    }
    var offCurve = key
    offCurve[64] ^= 1
    #expect(throws: PushEncryption.Failure.badSubscriberKey) {
      try PushEncryption.encrypt(Data("x".utf8), subscriberKey: offCurve, authSecret: auth)
    }
    #expect(throws: PushEncryption.Failure.badAuthSecret) {
      try PushEncryption.encrypt(Data("x".utf8), subscriberKey: key, authSecret: Data(count: 15))
    }
    let longest = Data(count: PushEncryption.maxPlaintextSize)
    #expect((try? PushEncryption.encrypt(longest, subscriberKey: key, authSecret: auth))?.count == 4096)
    #expect(throws: PushEncryption.Failure.tooLong(longest.count + 1)) {
      try PushEncryption.encrypt(longest + [0], subscriberKey: key, authSecret: auth)
    }
  }
}

/// The browser's side, written from RFC 8188 §2 for the tests only.
enum TestDecryption {
  struct Bad: Error {}

  static func decrypt(_ body: Data, subscriber: P256.KeyAgreement.PrivateKey, authSecret: Data) throws -> Data {
    let body = Data(body)
    let salt = body.prefix(16)
    let idLength = Int(body[20])
    let senderPublic = body.subdata(in: 21..<(21 + idLength))
    let sealed = body.suffix(from: 21 + idLength)
    let shared = try subscriber.sharedSecretFromKeyAgreement(
      with: P256.KeyAgreement.PublicKey(x963Representation: senderPublic))
    let info = Data("WebPush: info".utf8) + [0] + subscriber.publicKey.x963Representation + senderPublic
    let ikm = shared.hkdfDerivedSymmetricKey(using: SHA256.self, salt: authSecret, sharedInfo: info, outputByteCount: 32)
    let cek = HKDF<SHA256>.deriveKey(
      inputKeyMaterial: ikm, salt: salt, info: Data("Content-Encoding: aes128gcm".utf8) + [0], outputByteCount: 16)
    let nonce = HKDF<SHA256>.deriveKey(
      inputKeyMaterial: ikm, salt: salt, info: Data("Content-Encoding: nonce".utf8) + [0], outputByteCount: 12)
    let box = try AES.GCM.SealedBox(
      nonce: AES.GCM.Nonce(data: nonce.withUnsafeBytes { Data($0) }), ciphertext: sealed.dropLast(16), tag: sealed.suffix(16))
    var record = try AES.GCM.open(box, using: cek)
    while record.last == 0 { record.removeLast() }
    guard record.last == 0x02 else { throw Bad() }
    return record.dropLast()
  }
}
