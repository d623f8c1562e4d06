import Foundation
import PropertyBased
import TallyCore
import Testing

@Suite struct HexColorTests {
  @Test func threeDigitsExpandByRepeating() throws {
    let color = try HexColor(parsing: "#4C0")
    #expect(color == HexColor(red: 0x44, green: 0xCC, blue: 0x00))
    #expect(color.hex == "#44CC00")
  }

  @Test func theHashIsOptionalAndCaseIsIgnored() throws {
    #expect(try HexColor(parsing: "44c0ff") == .selection)
    #expect(try HexColor(parsing: "#44C0FF") == .selection)
  }

  @Test func eightDigitsPutAlphaFirst() throws {
    let color = try HexColor(parsing: "#80333B40")
    #expect(color == HexColor(red: 0x33, green: 0x3B, blue: 0x40, alpha: 0x80))
    #expect(color.hex == "#80333B40")
    #expect(color.css == "rgba(51, 59, 64, 0.502)")
  }

  @Test func badInputIsRejectedNotBlack() {
    for bad in ["", "#", "12", "1234", "12345", "1234567", "#GGGGGG", "##123456", "#12 456", "123456789", "💜💜💜"] {
      #expect(throws: ValidationError.self, "\(bad)") { try HexColor(parsing: bad) }
    }
    do {
      _ = try HexColor(parsing: "purple", field: "color")
    } catch {
      #expect(error.description == "color must be a hex colour like #RGB, #RRGGBB or #AARRGGBB, not 'purple'")
    }
  }

  @Test func printedColoursParseBackToThemselves() async {
    let input = zip(Gen.uint8(), Gen.uint8(), Gen.uint8(), Gen.uint8())
    await propertyCheck(count: 300, input: input) { r, g, b, a in
      let color = HexColor(red: r, green: g, blue: b, alpha: a)
      #expect((try? HexColor(parsing: color.hex)) == color)
      #expect((try? HexColor(parsing: String(color.hex.dropFirst()).lowercased())) == color)
    }
  }
}
