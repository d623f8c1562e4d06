/// 64-bit FNV-1a in hex: stable across runs and machines, for cache validators (ETags), never
/// for security.
package enum FNV1a {
  package static func hex<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    return String(hash, radix: 16)
  }
}
