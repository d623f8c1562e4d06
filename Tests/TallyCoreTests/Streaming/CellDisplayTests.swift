import Foundation
import TallyCore
import Testing

@Suite struct CellDisplayTests {
  private func display(_ providers: [Provider]) throws -> (CellDisplay, MonthCell) {
    let show = Fixtures.show("Show", ["US": providers])
    let view = try Fixtures.september(shows: [show], episodes: Fixtures.episodes(of: show, on: "2025-09-02"))
    let cell = try #require(view.cell(for: Fixtures.day("2025-09-02")))
    return (cell.display, cell)
  }

  @Test func noProvidersShowNothing() throws {
    #expect(CellDisplay(orderedProviders: []) == .none)
    #expect(CellDisplay.none.overflowText == nil)
  }

  @Test func oneProviderIsOneLargeLogo() throws {
    #expect(try display([Fixtures.netflix]).0 == .logo(Fixtures.netflix))
  }

  @Test func twoOrThreeProvidersAreThePrimarysLogoAndADotPerOther() throws {
    #expect(try display([Fixtures.max, Fixtures.netflix]).0 == .logoWithDots(primary: Fixtures.netflix, dots: [Fixtures.max]))
    #expect(
      try display([Fixtures.hulu, Fixtures.max, Fixtures.disney]).0
        == .logoWithDots(primary: Fixtures.disney, dots: [Fixtures.hulu, Fixtures.max]))
  }

  @Test func moreThanThreeProvidersAreThreeDotsAndPlusN() throws {
    let four = [Fixtures.max, Fixtures.hulu, Fixtures.netflix, Fixtures.disney]
    let (fourDisplay, _) = try display(four)
    #expect(fourDisplay == .dots([Fixtures.disney, Fixtures.netflix, Fixtures.hulu], overflow: 1))
    #expect(fourDisplay.overflowText == "+1")

    let six = four + [Fixtures.prime, Fixtures.paramount]
    let (sixDisplay, cell) = try display(six)
    #expect(sixDisplay == .dots([Fixtures.prime, Fixtures.paramount, Fixtures.disney], overflow: 3))
    #expect(sixDisplay.overflowText == "+3")
    #expect(cell.providers.count == 6)
  }

  /// A primary without a logo cannot be drawn as one, so the cell falls back to dots even for
  /// one provider, and `+N` only appears when providers are left out.
  @Test func aPrimaryWithoutALogoMeansDotsOnly() throws {
    let noLogo = try Provider(id: 2, name: "Apple iTunes", logoURL: nil)
    #expect(try display([Fixtures.stan]).0 == .dots([Fixtures.stan], overflow: 0))
    #expect(try display([Fixtures.stan]).0.overflowText == nil)
    #expect(try display([Fixtures.max, noLogo]).0 == .dots([noLogo, Fixtures.max], overflow: 0))
    #expect(try display([Fixtures.max, noLogo, Fixtures.hulu]).0 == .dots([noLogo, Fixtures.hulu, Fixtures.max], overflow: 0))
  }

  /// Only the primary's logo matters: a secondary provider without a logo is a dot anyway.
  @Test func aSecondaryWithoutALogoKeepsThePrimarysLogo() throws {
    #expect(try display([Fixtures.stan, Fixtures.netflix]).0 == .logoWithDots(primary: Fixtures.netflix, dots: [Fixtures.stan]))
  }

  @Test func codesFlatWithAMode() throws {
    let cases: [CellDisplay] = [
      .none, .logo(Fixtures.netflix), .logoWithDots(primary: Fixtures.netflix, dots: [Fixtures.max]),
      .dots([Fixtures.stan, Fixtures.max, Fixtures.hulu], overflow: 2),
    ]
    let data = try JSONEncoder().encode(cases)
    #expect(try JSONDecoder().decode([CellDisplay].self, from: data) == cases)
    let json = try #require(JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    #expect(json.map { $0["mode"] as? String } == ["none", "logo", "logoWithDots", "dots"])
    #expect(json[3]["overflow"] as? Int == 2)
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(CellDisplay.self, from: Data(#"{"mode":"banner"}"#.utf8))
    }
  }
}

@Suite struct LogoGeometryTests {
  private func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-9 }

  @Test func sizeIsSixtyPercentOfTheCellCappedAtFortyEight() throws {
    let small = try LogoGeometry(cellWidth: 50)
    #expect(close(small.diameter, 30))
    #expect(close(small.padding, 3))
    #expect(close(small.imageSide, 24))
    #expect(close(small.cornerRadius, 15))
    #expect(close(try LogoGeometry(cellWidth: 79).diameter, 47.4))
    #expect(try LogoGeometry(cellWidth: 80).diameter == 48)
    let large = try LogoGeometry(cellWidth: 200)
    #expect(large.diameter == 48)
    #expect(close(large.padding, 4.8))
    #expect(close(large.imageSide, 38.4))
    #expect(try LogoGeometry(cellWidth: 0).diameter == 0)
  }

  @Test func rejectsWidthsThatAreNotSizes() {
    for bad in [-1.0, .nan, .infinity] {
      #expect(throws: ValidationError.self) { try LogoGeometry(cellWidth: bad) }
    }
  }
}

@Suite struct ProviderPaletteTests {
  /// Published FNV-1a 32-bit test vectors: the hash is the standard one, not a look-alike.
  @Test func fnv1aMatchesTheReferenceVectors() {
    #expect(ProviderPalette.fnv1a32("") == 0x811C_9DC5)
    #expect(ProviderPalette.fnv1a32("a") == 0xE40C_292C)
    #expect(ProviderPalette.fnv1a32("foobar") == 0xBF9C_F968)
  }

  /// Pinned so a change to the palette or the hash, which would recolour every user's
  /// calendar, fails here first.
  @Test(arguments: [
    (8, "#4ECDC4"), (9, "#5BC0EB"), (15, "#4ECDC4"), (337, "#5CD69B"), (1899, "#F78FB3"),
    (350, "#F5EBDC"), (531, "#F78FB3"), (386, "#5CD69B"),
  ])
  func pinnedColours(id: Int, hex: String) {
    #expect(ProviderPalette.color(forProviderID: id).hex == hex)
  }

  @Test func colourComesFromTheHashOfTheDecimalID() {
    for id in [1, 8, 42, 337, 1899, 100_000] {
      let index = Int(ProviderPalette.fnv1a32(String(id)) % UInt32(ProviderPalette.colors.count))
      #expect(ProviderPalette.color(forProviderID: id) == ProviderPalette.colors[index])
      #expect(ProviderPalette.color(for: try! Provider(id: id, name: "P")) == ProviderPalette.colors[index])
    }
  }

  @Test func paletteHasTenDistinctOpaqueColoursAllInUse() {
    #expect(ProviderPalette.colors.count == 10)
    #expect(Set(ProviderPalette.colors).count == 10)
    #expect(ProviderPalette.colors.allSatisfy { $0.alpha == 255 })
    #expect(Set((1...500).map(ProviderPalette.color(forProviderID:))) == Set(ProviderPalette.colors))
  }

  /// Every colour must stand out from the dark purple theme: relative luminance well above
  /// the background's.
  @Test func coloursReadOnDarkPurple() {
    func luminance(_ c: HexColor) -> Double {
      func channel(_ v: UInt8) -> Double {
        let s = Double(v) / 255
        return s <= 0.03928 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
      }
      return 0.2126 * channel(c.red) + 0.7152 * channel(c.green) + 0.0722 * channel(c.blue)
    }
    let background = HexColor(red: 0x2A, green: 0x1F, blue: 0x3D)
    for color in ProviderPalette.colors {
      let contrast = (luminance(color) + 0.05) / (luminance(background) + 0.05)
      #expect(contrast >= 4.5, "\(color.hex) contrast \(contrast)")
    }
  }
}
