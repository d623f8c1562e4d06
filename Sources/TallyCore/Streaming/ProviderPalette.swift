/// The dot colour of each provider (SPEC 6).
///
/// The colour must be the same on every run, device and server, so it comes from FNV-1a over
/// the id's decimal digits, a hash fixed by its definition. Swift's `hashValue` is seeded per
/// process and would recolour the calendar on every launch.
public enum ProviderPalette {
  /// Light, saturated colours that stay distinct from each other and readable as small dots on
  /// the dark matte purple background.
  public static let colors: [HexColor] = [
    HexColor(red: 0xFF, green: 0x6B, blue: 0x6B),  // coral
    HexColor(red: 0xFF, green: 0xA9, blue: 0x4D),  // tangerine
    HexColor(red: 0xFF, green: 0xE0, blue: 0x66),  // sunflower
    HexColor(red: 0xB8, green: 0xE9, blue: 0x86),  // lime
    HexColor(red: 0x5C, green: 0xD6, blue: 0x9B),  // mint
    HexColor(red: 0x4E, green: 0xCD, blue: 0xC4),  // teal
    HexColor(red: 0x5B, green: 0xC0, blue: 0xEB),  // sky
    HexColor(red: 0x8C, green: 0x9E, blue: 0xFF),  // periwinkle
    HexColor(red: 0xF7, green: 0x8F, blue: 0xB3),  // pink
    HexColor(red: 0xF5, green: 0xEB, blue: 0xDC),  // cream
  ]

  public static func color(forProviderID id: Int) -> HexColor {
    colors[Int(fnv1a32(String(id)) % UInt32(colors.count))]
  }

  public static func color(for provider: Provider) -> HexColor {
    color(forProviderID: provider.id)
  }

  /// 32-bit FNV-1a over the text's UTF-8 bytes.
  public static func fnv1a32(_ text: String) -> UInt32 {
    var hash: UInt32 = 0x811C_9DC5
    for byte in text.utf8 {
      hash ^= UInt32(byte)
      hash = hash &* 0x0100_0193
    }
    return hash
  }
}
