import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import TallyServerTesting
import Testing

/// Issue 60: every text a user can store is shown as typed and never becomes markup, however
/// it arrives (the API, an import, a sync push). Each payload is stored in every free-text
/// field, every page is drawn, and each page is compared with the same page drawn from plain
/// texts: an element or attribute the plain page does not have is markup a text made.
@Suite struct StoredTextStaysTextTests {
  static let payloads = [
    #""><img src=x onerror=f()>"#,
    "</script><script>f()//",
    "'><svg onload=f()>",
    "</textarea><marquee>",
    "{{chrome}}{{{content}}}",
    "javascript:alert(1)",
    // A quote and a combining mark are one Character: escaping by Character misses the quote.
    "\"\u{301} onclick=f() '\u{301} x=y",
  ]

  @Test(arguments: payloads)
  func aPayloadInEveryFieldStaysText(payload: String) async throws {
    let plain = try await Self.drawnPages { "Plain \($0)" }
    let attacked = try await Self.drawnPages { "\(payload) \($0)" }
    #expect(plain.count == attacked.count)
    var shownTexts: [String] = []
    for (page, plainPage) in zip(attacked, plain) {
      let shape = MarkupShape(page.html)
      let made = shape.beyond(MarkupShape(plainPage.html))
      #expect(made.isEmpty, "\(page.name): the texts made \(made)")
      let followed = shape.addresses.filter { $0.trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("javascript:") }
      #expect(followed.isEmpty, "\(page.name): a link or source \(followed)")
      shownTexts += shape.texts
    }
    // Shown as typed: each field's text appears whole, decoded, on some page.
    for field in Self.fields {
      #expect(shownTexts.contains { $0.contains("\(payload) \(field)") }, "\(field) is not shown as typed")
    }
  }

  /// The short names that tell the fields' texts apart (unique names need unique texts).
  static let fields = ["h1", "h2", "u", "g", "d", "n1", "n2", "n3", "j", "c", "s", "p", "e", "t"]

  struct Page {
    let name: String
    let html: String
  }

  /// Every page of three accounts holding the same records: the owner's written through the
  /// API, a member's imported from the owner's export, another member's pushed through sync.
  static func drawnPages(_ text: @escaping @Sendable (String) -> String) async throws -> [Page] {
    let server = try TestServer()
    return try await server.test { client in
      let owner = try await client.setUpOwner()
      try await store(text, into: client, headers: owner)
      var drawn = try await pages(of: client, headers: owner, text: text, account: "API")

      let imported = try await client.addMember("bea", owner: owner)
      let export = try await client.send(.get, "/api/v1/export", headers: owner)
      var importing = imported
      importing[.contentType] = "application/json"
      let taken = try await client.executeRequest(
        uri: "/api/v1/import?format=json", method: .post, headers: importing, body: export.body)
      #expect(taken.status == .created, "\(taken.text)")
      drawn += try await pages(of: client, headers: imported, text: text, account: "import")

      let synced = try await client.addMember("cyd", owner: owner)
      try await push(changesOf: owner, to: synced, client: client)
      drawn += try await pages(of: client, headers: synced, text: text, account: "sync")
      return drawn
    }
  }

  /// The records of every kind with a free-text field, through the API.
  static func store(_ text: (String) -> String, into client: some TestClientProtocol, headers: HTTPFields) async throws {
    let measured = try await client.addHabit(
      text("h1"),
      [
        "measure": ["unit": text("u"), "target": 4], "group": text("g"), "description": text("d"),
        "createdDay": "2026-03-01",
      ], headers: headers)
    let counted = try await client.addHabit(
      text("h2"), ["group": text("g"), "createdDay": "2026-03-01", "frequency": ["type": "weekly", "targetPerWeek": 3]],
      headers: headers)
    let measuredID = try #require(measured["id"] as? String)
    let countedID = try #require(counted["id"] as? String)
    let writes: [(HTTPRequest.Method, String, [String: Any])] = [
      (.put, "/api/v1/habits/\(measuredID)/entries/2026-03-08", ["status": "done", "amount": 2, "note": text("n1")]),
      (.put, "/api/v1/habits/\(countedID)/entries/2026-03-07", ["status": "done", "note": text("n2")]),
      (.put, "/api/v1/habits/\(countedID)/entries/2026-03-06", ["status": "noted", "note": text("n3")]),
      (.put, "/api/v1/journal/2026-03-08", ["text": text("j")]),
      (.post, "/api/v1/chat/2026-03-08", ["text": text("c")]),
      (.post, "/api/v1/tokens", ["name": text("t")]),
    ]
    for (method, uri, body) in writes {
      let answer = try await client.send(method, uri, json: body, headers: headers)
      #expect((200..<300).contains(answer.status.code), "\(uri): \(answer.text)")
    }
    let show = try await client.send(
      .post, "/api/v1/shows",
      json: [
        "title": text("s"), "status": "watching",
        "providers": ["US": [["id": 1899, "name": text("p"), "logoURL": "https://image.example/max.png"]]],
      ], headers: headers)
    #expect(show.status == .created, "\(show.text)")
    let showID = try #require(show.object["id"] as? String)
    let episodes = try await client.send(
      .put, "/api/v1/shows/\(showID)/episodes",
      json: ["episodes": [["season": 1, "number": 1, "title": text("e"), "airDay": "2026-03-10"]]], headers: headers)
    #expect(episodes.status == .ok, "\(episodes.text)")
    let price = try await client.send(
      .put, "/api/v1/prices/US/1899", json: ["amount": 9.99, "currency": "USD"], headers: headers)
    #expect(price.status == .ok, "\(price.text)")
  }

  /// The account's changes, as another device of `to` would push them: fresh ids for the
  /// habits, shows and messages, and stamps of the pushing device.
  static func push(
    changesOf from: HTTPFields, to: HTTPFields, client: some TestClientProtocol
  ) async throws {
    var changes: [[String: Any]] = []
    var cursor = ""
    while true {
      let page = try await client.send(.get, "/api/v1/sync" + (cursor.isEmpty ? "" : "?cursor=\(cursor)"), headers: from)
      changes += page.object["changes"] as? [[String: Any]] ?? []
      cursor = page.object["cursor"] as? String ?? ""
      guard page.object["more"] as? Bool == true else { break }
    }
    let device = UUID().uuidString.lowercased()
    var renamed: [String: String] = [:]
    let milliseconds = String(Int64(testNow.timeIntervalSince1970 * 1000))
    let pushed: [[String: Any]] = changes.filter { $0["kind"] as? String != "settings" }.enumerated().map { index, change in
      var change = change
      let id = change["id"] as? String ?? ""
      let parts = id.split(separator: "/", maxSplits: 1).map(String.init)
      if let first = parts.first, UUID(uuidString: first) != nil {
        let fresh = renamed[first] ?? UUID().uuidString.lowercased()
        renamed[first] = fresh
        change["id"] = ([fresh] + parts.dropFirst()).joined(separator: "/")
      }
      let counter = String(index, radix: 16)
      change["stamp"] =
        String(repeating: "0", count: 16 - milliseconds.count) + milliseconds + "-"
        + String(repeating: "0", count: 8 - counter.count) + counter + "-" + device
      return change
    }
    let answer = try await client.send(.post, "/api/v1/sync", json: ["device": device, "changes": pushed], headers: to)
    #expect(answer.status == .ok, "\(answer.text)")
  }

  /// Every page the account's records appear on, and a form sent back with an error.
  static func pages(
    of client: some TestClientProtocol, headers: HTTPFields, text: (String) -> String, account: String
  ) async throws -> [Page] {
    let habits = try await client.send(.get, "/api/v1/habits", headers: headers).array.compactMap { $0["id"] as? String }
    let shows = try await client.send(.get, "/api/v1/shows", headers: headers).array.compactMap { $0["id"] as? String }
    #expect(habits.count == 2 && shows.count == 1, "\(account) holds every record")
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    let query = text("j").addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    var uris = [
      "/today", "/today?day=2026-03-07", "/today?day=2026-03-06", "/habits", "/habits/new", "/journal",
      "/journal?q=\(query)", "/calendar", "/calendar/2026-03?country=US&day=2026-03-10", "/statistics", "/shows",
      "/prices", "/settings",
    ]
    for id in habits {
      uris += ["/habits/\(id)", "/habits/\(id)/edit", "/habits/\(id)?day=2026-03-08", "/habits/\(id)?day=2026-03-06"]
    }
    uris += shows.map { "/shows/\($0)" }
    var pages: [Page] = []
    for uri in uris {
      pages.append(Page(name: "\(account) \(uri)", html: try await client.page(uri, headers: headers)))
    }
    // A refused form is drawn again with what was typed.
    let refused = try await client.postPageForm(
      "/habits", [("name", text("h1") + "x"), ("kind", "measurable"), ("goal", "0"), ("unit", text("u")), ("reminder", "none")],
      headers: headers)
    #expect(refused.status == .unprocessableContent)
    pages.append(Page(name: "\(account) refused habit form", html: refused.text))
    return pages
  }
}
