import Foundation
import HTTPTypes
import HummingbirdTesting
import TallyHTTP
import TallyServer
import TallyServerTesting
import Testing

/// Issue 14's offline web app, the server's part: the service worker names the shell it keeps
/// at the very URLs the pages link, the pages carry what an offline write needs, and the
/// browser's session may push through sync from Tally's own pages only.
@Suite struct OfflineAppTests {
  /// The `/assets/...` URLs a page links (stylesheets and scripts).
  private func linkedAssets(_ page: String) throws -> [String] {
    let pattern = try NSRegularExpression(pattern: #"(?:href|src)="(/assets/[^"]+)""#)
    return pattern.matches(in: page, range: NSRange(page.startIndex..., in: page)).map {
      String(page[Range($0.range(at: 1), in: page)!])
    }
  }

  @Test func theWorkerPrecachesEveryAssetAtTheVersionThePagesLink() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let worker = try await client.send(.get, "/sw.js")
      #expect(worker.status == .ok)
      #expect(worker.headers[.cacheControl] == "no-cache", "browsers must see a new worker at once")
      #expect(worker.headers[HTTPField.Name("Service-Worker-Allowed")!] == "/")
      let text = worker.text
      #expect(!text.contains("TALLY_SHELL") && !text.contains("TALLY_VERSION"), "every placeholder is filled in")
      let version = try #require(text.firstMatch(of: /const VERSION = "([0-9a-f]+)";/)?.1)
      #expect(text.contains("`tally-shell-${VERSION}`"))

      let page = try await client.page("/today", headers: owner)
      let linked = try linkedAssets(page)
      #expect(linked.count >= 8, "\(linked)")
      for url in linked + ["/manifest.webmanifest", "/assets/icon-192.png", "/assets/icon-512.png"] {
        let asset = try await client.send(.get, String(url.split(separator: "?")[0]))
        let etag = try #require(asset.headers[.eTag]).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        let precached = url.hasPrefix("/assets/") ? "\(url.split(separator: "?")[0])?v=\(etag)" : url
        #expect(text.contains("\"\(precached)\""), "\(precached) is not in the worker's shell")
        #expect(url.contains("?") == false || url == precached, "the page links \(url), the shell holds \(precached)")
      }
      // One version for one shell: the same worker on every request.
      #expect(try await client.send(.get, "/sw.js").text.contains("\"\(version)\""))
    }
  }

  @Test func pagesCarryWhatAnOfflineWriteNeeds() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let id = try #require(try await client.addHabit("Read", headers: owner)["id"] as? String)
      let marked = try await client.send(
        .put, "/api/v1/habits/\(id)/entries/2026-03-08", json: ["status": "done", "note": "A & B"], headers: owner)
      #expect(marked.status == .ok || marked.status == .created, "\(marked.text)")
      let today = try await client.page("/today", headers: owner)
      let user = try #require(today.firstMatch(of: /data-user="([0-9a-f-]{36})"/)?.1)
      #expect(today.contains("data-owner=\"\(user)\""), "the outbox and the drafts name the same account")
      #expect(
        today.contains(try Regex("data-offline=\"entry\" data-note=\"A &amp; B\" data-color=\"#[0-9A-Fa-f]{6}\" id=\"mark-\(id)\"")),
        "the day's note and the habit's colour travel with a mark")
      #expect(today.contains("data-offline=\"journal\" id=\"journal-form\""))
      #expect(today.contains("data-offline=\"chat\" id=\"chat-form\""))
      #expect(today.contains("id=\"sync-status\" role=\"status\""))
      let habits = try await client.page("/habits", headers: owner)
      #expect(habits.contains("data-offline=\"entry\" data-note=\"A &amp; B\" id=\"quick-\(id)\""), "a card's button too")
      let habit = try await client.page("/habits/\(id)?day=2026-03-08", headers: owner)
      #expect(habit.contains("data-offline=\"entry\" id=\"day-editor-form\""))
      #expect(habit.contains("<template id=\"grid-cell-looks\">"), "a cell tapped offline is painted as the server paints it")
      #expect(habit.contains("data-day=\"2026-03-08\" data-note=\"A &amp; B\""), "a tap offline keeps the day's note")
      let signIn = try await client.send(.get, "/signin")
      #expect(!signIn.text.contains("data-user="), "a signed-out page has no outbox")
      #expect(!signIn.text.contains("id=\"sync-status\""))
    }
  }

  /// What offline.js draws comes from fragments the server renders with the very templates and
  /// code of the page, so a change to one is a change to both (issue 26).
  @Test func theOfflineFragmentsAreTheServersOwnMarkup() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let id = try #require(try await client.addHabit("Read", headers: owner)["id"] as? String)
      // The page's circles are drawn once with a blank where a habit's colour goes.
      func checks(_ page: String) throws -> (drawn: String, done: String, undone: String) {
        let form = try #require(page.firstMatch(of: /data-color="([^"]+)" id="mark-[^"]+">(?s:.*?)<\/form>/))
        let drawn = try #require(form.0.firstMatch(of: /aria-label="[^"]*">\s*(<svg.*?<\/svg>)/)?.1)
        func fragment(_ id: String) throws -> String {
          let text = try #require(page.firstMatch(of: try Regex("<template id=\"\(id)\" data-blank=\"habit-color\">(.*?)</template>"))?.output[1].substring)
          return text.replacingOccurrences(of: "\"habit-color\"", with: "\"\(form.1)\"")
        }
        return (String(drawn), try fragment("check-done"), try fragment("check-undone"))
      }
      let before = try checks(try await client.page("/today", headers: owner))
      #expect(before.drawn == before.undone, "the circle drawn undone is the fragment for undone")
      #expect(before.done != before.undone)
      try await client.send(.put, "/api/v1/habits/\(id)/entries/2026-03-08", json: ["status": "done"], headers: owner)
      let after = try checks(try await client.page("/today", headers: owner))
      #expect(after.drawn == before.done, "a day marked offline shows what the server draws for a done day")

      let habits = try await client.page("/habits", headers: owner)
      let label = try #require(habits.firstMatch(of: /data-done-label="([^"]+)" data-undone-label="([^"]+)">([^<]+)</)?.output)
      #expect(label.3 == label.1, "the card's label for a done day is the one a tap offline shows")

      try await client.send(.put, "/api/v1/habits/\(id)/entries/2026-03-07", json: ["status": "skipped", "note": "n"], headers: owner)
      let page = try await client.page("/habits/\(id)", headers: owner)
      let looks = try #require(page.firstMatch(of: /<template id="grid-cell-looks">(.*?)<\/template>/)?.1)
      func look(_ state: String) throws -> Substring {
        try #require(looks.firstMatch(of: try Regex("data-state=\"\(state)\" data-spoken=\"[^\"]*\">(.*?)</g>"))?.output[1].substring)
      }
      let skippedCell = try #require(page.firstMatch(of: /data-day="2026-03-07"[^>]*><title>[^<]*<\/title><path class="hit"[^>]*\/>(.*?)<\/a>/)?.1)
      let (skipped, noted) = (try look("skipped"), try look("noted"))
      #expect(skippedCell.hasPrefix(skipped), "a skipped day is the skipped look: \(skippedCell) against \(skipped)")
      #expect(skippedCell.hasSuffix(noted.drop(while: { $0 != ">" }).dropFirst()), "and carries the note's dot")
      let doneCell = try #require(page.firstMatch(of: /data-day="2026-03-08"[^>]*><title>[^<]*<\/title><path class="hit"[^>]*\/>(.*?)<\/a>/)?.1)
      #expect(doneCell == (try look("done")), "a done day is the done look")
      #expect(looks.contains("data-state=\"done\" data-spoken=\"completed\""), "with the words a screen reader says")

      try await client.send(.post, "/api/v1/chat/2026-03-08", json: ["text": "hi"], headers: owner)
      let today = try await client.page("/today", headers: owner)
      let pending = try #require(today.firstMatch(of: /<template id="message-template">(.*?)<\/template>/.dotMatchesNewlines())?.1)
      #expect(pending.hasPrefix("<li class=\"message\" id=\"message-\"><span class=\"who\">You · <time datetime=\"\">"))
      #expect(pending.contains(" · waiting to be sent") && !pending.contains("<details"), "waiting, and not editable yet")
      #expect(today.contains("<li class=\"message\" id=\"message-"), "sent messages come from the same partial")
    }
  }

  /// Offline stamps follow the server's clock: every answer names it, pages (kept or not),
  /// sync answers and refusals alike, in milliseconds.
  @Test func everyAnswerNamesTheServersClock() async throws {
    let clock = String(Int64(testNow.timeIntervalSince1970 * 1000))
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      for path in ["/today", "/today", "/api/v1/sync", "/assets/app.css", "/api/v1/nothing"] {
        let answer = try await client.send(.get, path, headers: owner)
        #expect(answer.headers[HTTPField.Name("Tally-Clock")!] == clock, "\(path) answered \(answer.status)")
      }
      let refused = try await client.send(.post, "/api/v1/sync", json: "{", headers: owner)
      #expect(refused.status == .unprocessableContent)
      #expect(refused.headers[HTTPField.Name("Tally-Clock")!] == clock)
    }
  }

  /// offline.js sends the outbox with the browser's session. Browsers name the page's origin on
  /// every POST, so Tally's own pages may; another site's page may not, and changes nothing.
  @Test func theBrowsersSessionPushesThroughSyncFromTallysOwnPagesOnly() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let id = try #require(try await client.addHabit("Read", headers: owner)["id"] as? String)
      let device = UUID().uuidString.lowercased()
      let stamp = String(format: "%016lld-00000000-", Int64(testNow.timeIntervalSince1970 * 1000)) + device
      let push: [String: Any] = [
        "device": device,
        "changes": [["kind": "entry", "id": "\(id)/2026-03-08", "stamp": stamp, "fields": ["status": "done", "note": NSNull()]]],
      ]
      var crossSite = owner
      crossSite[.origin] = "https://evil.example"
      crossSite[HTTPField.Name("Host")!] = "tally.example"
      let refused = try await client.send(.post, "/api/v1/sync", json: push, headers: crossSite)
      #expect(refused.status == .forbidden)
      #expect(try await client.send(.get, "/api/v1/habits/\(id)/entries", headers: owner).text.contains("done") == false)

      var sameSite = owner
      sameSite[.origin] = "http://tally.example"
      sameSite[HTTPField.Name("Host")!] = "tally.example"
      let taken = try await client.send(.post, "/api/v1/sync", json: push, headers: sameSite)
      #expect(taken.status == .ok, "\(taken.text)")
      #expect(taken.object["applied"] as? Int == 1)
      let today = try await client.page("/today", headers: owner)
      #expect(today.contains("aria-pressed=\"true\""), "the page shows the day marked")
    }
  }
}
