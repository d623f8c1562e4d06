/// An sRGB colour with alpha, parsed from hex text (SPEC 8).
///
/// Accepted forms, `#` optional: `RGB` (each digit ×17), `RRGGBB`, and `AARRGGBB` (alpha
/// first). Anything else is an error, never a silent black.
public struct HexColor: Hashable, Sendable {
  public let red: UInt8
  public let green: UInt8
  public let blue: UInt8
  public let alpha: UInt8

  public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }

  public init(parsing text: String, field: String = "color") throws(ValidationError) {
    let digits = text.hasPrefix("#") ? text.dropFirst() : Substring(text)
    let rule = "must be a hex colour like #RGB, #RRGGBB or #AARRGGBB, not '\(text)'"
    guard [3, 6, 8].contains(digits.utf8.count),
      digits.utf8.allSatisfy({ HexColor.hexValue($0) != nil })
    else {
      throw ValidationError(field: field, rule: rule)
    }
    let nibbles = digits.utf8.map { HexColor.hexValue($0)! }
    func byte(_ at: Int) -> UInt8 { nibbles[at] << 4 | nibbles[at + 1] }
    switch nibbles.count {
    case 3:
      self.init(red: nibbles[0] * 17, green: nibbles[1] * 17, blue: nibbles[2] * 17)
    case 6:
      self.init(red: byte(0), green: byte(2), blue: byte(4))
    default:
      self.init(red: byte(2), green: byte(4), blue: byte(6), alpha: byte(0))
    }
  }

  /// `#RRGGBB` when opaque, otherwise `#AARRGGBB`; upper-case.
  public var hex: String {
    let bytes = alpha == 255 ? [red, green, blue] : [alpha, red, green, blue]
    return "#" + bytes.map(HexColor.twoDigits).joined()
  }

  /// `#RRGGBB` or `rgba(r, g, b, a)`, for stylesheets.
  public var css: String {
    if alpha == 255 { return hex }
    let opacity = (Double(alpha) / 255 * 1000).rounded() / 1000
    return "rgba(\(red), \(green), \(blue), \(opacity))"
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  private static func twoDigits(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
  }
}

extension HexColor: TextCodable {
  public var description: String { hex }
}

extension HexColor {
  /// The ring and Today button colour of the date picker.
  public static let selection = HexColor(red: 0x44, green: 0xC0, blue: 0xFF)
  /// Journal entry fill and chat dot.
  public static let entry = HexColor(red: 0x33, green: 0x3B, blue: 0x40)
}
