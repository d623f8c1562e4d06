import Foundation
import HTTPTypes
import HummingbirdTesting
import TallyCore
import TallyHTTP
import TallyServer
import TallyServerTesting
import Testing

/// The calendar's day sheet says what airs under each provider, and the month's providers
/// each get their own dot colour, named in a legend.
private var max: [String: Any] { ["id": 1899, "name": "Max"] }
private var paramount: [String: Any] { ["id": 531, "name": "Paramount Plus"] }

@Suite struct CalendarSheetTests {
  @Test func theSheetListsEachEpisodeUnderItsProvider() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      _ = try await client.addAiringShow("Severance", providers: ["US": [max]], days: ["2026-03-10"], headers: owner)
      _ = try await client.addAiringShow("Halo", providers: ["US": [paramount]], days: ["2026-03-10"], headers: owner)
      _ = try await client.addAiringShow("Paused", providers: ["US": [max]], days: ["2026-03-10"], status: "paused", headers: owner)
      let open = try await client.page("/calendar/2026-03?country=US&day=2026-03-10", headers: owner)
      let sheet = try #require(open.components(separatedBy: "<dialog").last)
      let maxRow = try #require(sheet.components(separatedBy: "<span class=\"row-name\">Max</span>").last)
      #expect(maxRow.contains("<li>Severance · S01E01 Episode 1</li>"))
      #expect(!sheet.contains("Paused"), "only watched shows air")
      let paramountRow = try #require(
        sheet.components(separatedBy: "<span class=\"row-name\">Paramount Plus</span>").last?.components(separatedBy: "</ul>").first)
      #expect(paramountRow.contains("<li>Halo · S01E01 Episode 1</li>"))
      #expect(!paramountRow.contains("Severance"))
    }
  }

  @Test func twoProvidersInOneMonthNeverShareADotColourAndTheLegendNamesThem() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      // Max and Paramount Plus hash to the same palette colour.
      _ = try await client.addAiringShow("Severance", providers: ["US": [max]], days: ["2026-03-10"], headers: owner)
      _ = try await client.addAiringShow("Halo", providers: ["US": [paramount]], days: ["2026-03-12"], headers: owner)
      let page = try await client.page("/calendar/2026-03?country=US", headers: owner)
      let legend = try #require(page.components(separatedBy: "id=\"cal-legend\"").last?.components(separatedBy: "</ul>").first)
      #expect(legend.contains("Max</li>") && legend.contains("Paramount Plus</li>"))
      let fills = legend.components(separatedBy: "fill=\"").dropFirst().map { $0.prefix(7) }
      #expect(fills.count == 2 && Set(fills).count == 2)
      #expect(!page.contains("POST /api/v1/shows"))

      let empty = try await TestServer().test { other in
        let lone = try await other.setUpOwner()
        return try await other.page("/calendar/2026-03", headers: lone)
      }
      #expect(empty.contains("<a href=\"/shows\">Add a show</a>"), "the empty month links to adding a show")
      #expect(!empty.contains("cal-legend"))
    }
  }
}
