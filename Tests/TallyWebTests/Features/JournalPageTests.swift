import Foundation
import HTTPTypes
import HummingbirdTesting
import TallyCore
import TallyHTTP
import TallyServer
import TallyServerTesting
import TallyStore
import Testing

/// The journal read back: entries newest first with their day's chat count, a search, and
/// "on this day" from earlier years. Today is Sunday 2026-03-08 (UTC).
@Suite struct JournalPageTests {
  func write(_ client: any TestClientProtocol, _ day: String, _ text: String, headers: HTTPFields) async throws {
    let response = try await client.send(.put, "/api/v1/journal/\(day)", json: ["text": text], headers: headers)
    #expect(response.status == .ok, "\(response.text)")
  }

  @Test func entriesAreListedNewestFirstWithTheirChatAndOnThisDay() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      try await write(client, "2024-03-08", "Two years ago", headers: ada)
      try await write(client, "2025-03-08", "A year ago", headers: ada)
      try await write(client, "2026-03-01", "Last week", headers: ada)
      try await write(client, "2026-03-07", "Yesterday <b>bold</b>", headers: ada)
      for text in ["one", "two"] {
        _ = try await client.send(.post, "/api/v1/chat/2026-03-07", json: ["text": text], headers: ada)
      }
      _ = try await client.send(.post, "/api/v1/chat/2026-03-05", json: ["text": "chat only"], headers: ada)

      let page = try await client.page("/journal", headers: ada)
      let list = try #require(page.components(separatedBy: "id=\"journal-entries\"").last)
      let order = list.components(separatedBy: "data-day=\"").dropFirst().map { String($0.prefix(10)) }
      #expect(order == ["2026-03-07", "2026-03-05", "2026-03-01", "2025-03-08", "2024-03-08"])
      #expect(list.contains("2 chat messages"))
      #expect(list.contains("1 chat message<"))
      #expect(list.contains("No entry; chat only."))
      #expect(list.contains("Yesterday &lt;b&gt;bold&lt;/b&gt;"), "entries are text, not markup")
      #expect(list.contains("href=\"/today?day=2026-03-07#journal\""))
      let onThisDay = try #require(page.components(separatedBy: "id=\"on-this-day\"").last?.components(separatedBy: "</section>").first)
      #expect(onThisDay.contains("Saturday 8 March 2025") && onThisDay.contains("Friday 8 March 2024"))
      #expect(!onThisDay.contains("Last week"))
      #expect(page.contains("<label for=\"journal-q\">Search the journal</label>"))
    }
  }

  @Test func searchFindsWordsIgnoringCaseAndAccentsAndMarksThem() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      try await write(client, "2026-03-01", "Coffee at the Café", headers: ada)
      try await write(client, "2026-03-02", "Tea", headers: ada)
      let found = try await client.page("/journal?q=cafe", headers: ada)
      #expect(found.contains("1 entry holds “cafe”, newest first."))
      #expect(found.contains("Coffee at the <mark>Café</mark>"))
      #expect(!found.contains("data-day=\"2026-03-02\""))
      #expect(found.contains("value=\"cafe\""), "the search box keeps the words")
      let none = try await client.page("/journal?q=zebra", headers: ada)
      #expect(none.contains("No entry holds “zebra”."))
      // Another account's entries never turn up.
      let bob = try await client.addMember("bob", owner: ada)
      #expect(try await client.page("/journal?q=cafe", headers: bob).contains("No entry holds"))
      _ = try await client.page("/journal?before=2026-02-30", headers: ada, status: .badRequest)
    }
  }

  @Test func theAPISearchesToo() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      try await write(client, "2026-03-01", "Coffee at the Café", headers: ada)
      try await write(client, "2026-03-02", "Tea", headers: ada)
      let found = try await client.send(.get, "/api/v1/journal?q=CAFE", headers: ada)
      #expect(found.array.map { $0["day"] as? String } == ["2026-03-01"])
      let blank = try await client.send(.get, "/api/v1/journal?q=%20", headers: ada)
      #expect(blank.status == .badRequest)
      #expect(blank.field == "q")
    }
  }

  @Test func aLongJournalIsPagedWithALinkToOlderEntries() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let start = Day("2026-01-01")!
      for offset in 0..<(31) {
        try await write(client, start.adding(days: offset).description, "Day \(offset)", headers: ada)
      }
      let first = try await client.page("/journal", headers: ada)
      #expect(first.occurrences(of: "class=\"card journal-item\"") == 30)
      #expect(first.contains("href=\"/journal?before=2026-01-02\""))
      let older = try await client.page("/journal?before=2026-01-02", headers: ada)
      #expect(older.occurrences(of: "class=\"card journal-item\"") == 1)
      #expect(!older.contains("journal-older"))
    }
  }
}
