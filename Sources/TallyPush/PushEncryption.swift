import Crypto
import Foundation

/// RFC 8291 message encryption: the `aes128gcm` content coding (RFC 8188) keyed by an ECDH
/// agreement with the subscription's P-256 key and its authentication secret.
///
/// One record of at most 4096 octets, the last-record delimiter 0x02 and no padding: a
/// reminder is short, and push services promise 4096 octets of body, header included.
public enum PushEncryption {
  public static let recordSize = 4096
  /// Salt (16) + record size (4) + key id length (1) + the sender's public key (65).
  public static let headerSize = 86
  /// The body must fit 4096 octets: the header, the plaintext, the delimiter and the tag.
  public static let maxPlaintextSize = recordSize - headerSize - 1 - 16

  public enum Failure: Error, Equatable, CustomStringConvertible {
    case badSubscriberKey
    case badAuthSecret
    case badSalt
    case tooLong(Int)

    public var description: String {
      switch self {
      case .badSubscriberKey: "the subscription's p256dh key is not an uncompressed P-256 point (65 bytes)"
      case .badAuthSecret: "the subscription's auth secret is not 16 bytes"
      case .badSalt: "the salt is not 16 bytes"
      case .tooLong(let size): "the message is \(size) bytes; at most \(maxPlaintextSize) fit one push"
      }
    }
  }

  /// The body to POST. `salt` and `senderKey` are random unless given (RFC 8291 §5's example
  /// gives both); never reuse either for a real message.
  public static func encrypt(
    _ plaintext: Data, subscriberKey: Data, authSecret: Data, salt: Data? = nil,
    senderKey: P256.KeyAgreement.PrivateKey = P256.KeyAgreement.PrivateKey()
  ) throws(Failure) -> Data {
    guard plaintext.count <= maxPlaintextSize else { throw .tooLong(plaintext.count) }
    guard authSecret.count == 16 else { throw .badAuthSecret }
    let salt = salt ?? Data(SymmetricKey(size: .bits128).withUnsafeBytes { Data($0) })
    guard salt.count == 16 else { throw .badSalt }
    guard subscriberKey.count == 65, subscriberKey.first == 0x04,
      let subscriber = try? P256.KeyAgreement.PublicKey(x963Representation: subscriberKey)
    else { throw .badSubscriberKey }
    let senderPublic = senderKey.publicKey.x963Representation

    // §3.3: IKM = HKDF(auth_secret, ecdh_secret, "WebPush: info" 0x00 ua_public as_public, 32).
    guard let shared = try? senderKey.sharedSecretFromKeyAgreement(with: subscriber) else { throw .badSubscriberKey }
    let keyInfo = Data("WebPush: info".utf8) + [0] + subscriberKey + senderPublic
    let ikm = shared.hkdfDerivedSymmetricKey(using: SHA256.self, salt: authSecret, sharedInfo: keyInfo, outputByteCount: 32)
    // RFC 8188 §2.2–2.3: the content key and nonce from the salt.
    let cek = HKDF<SHA256>.deriveKey(
      inputKeyMaterial: ikm, salt: salt, info: Data("Content-Encoding: aes128gcm".utf8) + [0], outputByteCount: 16)
    let nonce = HKDF<SHA256>.deriveKey(
      inputKeyMaterial: ikm, salt: salt, info: Data("Content-Encoding: nonce".utf8) + [0], outputByteCount: 12)

    let record = plaintext + [0x02]
    let sealed: AES.GCM.SealedBox
    do {
      sealed = try AES.GCM.seal(record, using: cek, nonce: AES.GCM.Nonce(data: nonce.withUnsafeBytes { Data($0) }))
    } catch {
      // Only a wrong key or nonce size fails, and both sizes are fixed above.
      preconditionFailure("AES-GCM refused a 16-byte key and a 12-byte nonce: \(error)")
    }
    var header = salt
    withUnsafeBytes(of: UInt32(recordSize).bigEndian) { header.append(contentsOf: $0) }
    header.append(UInt8(senderPublic.count))
    header.append(senderPublic)
    return header + sealed.ciphertext + sealed.tag
  }
}
