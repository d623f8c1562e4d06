import Foundation
import HTTPTypes
import HummingbirdTesting
import TallyServerTesting
import Testing

/// A measurable habit's unit is user text like any other (issue 60): the Habits page's
/// progress bar names it in an attribute, where it once went unescaped and became markup.
@Suite struct UnitMarkupTests {
  @Test func aUnitHoldingMarkupIsShownAsTypedOnTheHabitsAndTodayPages() async throws {
    let unit = #""><svg onload=alert(1)>"#
    let server = try TestServer()
    try await server.test { client in
      let owner = try await client.setUpOwner()
      let created = try await client.addHabit(
        "Run", ["measure": ["unit": unit, "target": 4], "createdDay": "2026-03-01"], headers: owner)
      #expect(created["id"] is String)
      let shown = #"&quot;&gt;&lt;svg onload=alert(1)&gt;"#
      for uri in ["/habits", "/today"] {
        let page = try await client.page(uri, headers: owner)
        #expect(!page.contains("<svg onload"), "\(uri) holds the unit as markup")
        #expect(page.contains(shown), "\(uri) shows the unit as typed")
      }
    }
  }
}
