import Foundation
import Testing

@testable import TallyCore

@Suite struct DistinctColorsTests {
  func providers(_ ids: [Int]) throws -> [Provider] {
    try ids.map { try Provider(id: $0, name: "P\($0)") }
  }

  /// Max (1899) and Paramount Plus (531) hash to the same colour; shown together they differ.
  @Test func providersShownTogetherNeverShareAColour() throws {
    #expect(ProviderPalette.color(forProviderID: 1899) == ProviderPalette.color(forProviderID: 531))
    let pair = ProviderPalette.distinctColors(for: try providers([1899, 531]))
    #expect(pair[1899] != pair[531])
    let ten = Array(1...10).map { $0 * 101 }
    #expect(Set(ProviderPalette.distinctColors(for: try providers(ten)).values).count == 10)
  }

  @Test func theColoursDoNotDependOnOrderAndKeepEachOwnWhenFree() throws {
    let ids = [8, 15, 337, 1899, 531, 9, 350]
    let forward = ProviderPalette.distinctColors(for: try providers(ids))
    #expect(forward == ProviderPalette.distinctColors(for: try providers(ids.reversed())))
    #expect(ProviderPalette.distinctColors(for: try providers([8]))[8] == ProviderPalette.color(forProviderID: 8))
  }
}
