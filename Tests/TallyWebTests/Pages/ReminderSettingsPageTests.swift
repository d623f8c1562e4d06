import Foundation
import HTTPTypes
import HummingbirdTesting
import TallyCore
import TallyHTTP
import TallyPush
import TallyServer
import TallyServerTesting
import TallyStore
import Testing

@Suite struct ReminderSettingsPageTests {
  @Test func aFeedLinkIsShownOnceWorksWithoutSignInAndStopsWhenRevoked() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      var headers = owner
      headers[HTTPField.Name("Host")!] = "tally.example"
      let made = try await client.post("/settings/feed", form: [], headers: headers)
      #expect(made.status == .created)
      let path = try #require(made.text.firstMatch(of: #/value="http://tally\.example(/feeds/[^"]+/reminders\.ics)"/#)?.1)
      let feed = try await client.fetch(String(path), headers: [:])
      #expect(feed.status == .ok)
      #expect(feed.text.hasPrefix("BEGIN:VCALENDAR"))
      let settings = try await client.fetch("/settings", headers: owner)
      #expect(settings.text.contains("A feed link is active since"))
      #expect(!settings.text.contains(String(path)), "the secret is shown once only")

      let revoked = try await client.post("/settings/feed/revoke", form: [], headers: owner)
      #expect(revoked.location == "/settings?saved=feed-revoked#reminders")
      #expect(try await client.fetch(String(path), headers: [:]).status == .notFound)
    }
  }

  @Test func theWebhookFormSavesRefusesAndRemoves() async throws {
    let server = try TestServer()
    try await server.test { client in
      let owner = try await client.setUpOwner()
      let user = try await client.userID(owner)
      let bad = try await client.post("/settings/webhook", form: [("url", "not a url"), ("kind", "ntfy")], headers: owner)
      #expect(bad.status == .unprocessableContent)
      #expect(try await server.store.webhook(for: user) == nil, "a refused address changes nothing")
      let saved = try await client.post(
        "/settings/webhook", form: [("url", "https://ntfy.sh/tally-test"), ("kind", "ntfy")], headers: owner)
      #expect(saved.location == "/settings?saved=webhook#reminders")
      #expect(try await server.store.webhook(for: user)?.kind == .ntfy)
      let page = try await client.fetch("/settings", headers: owner)
      #expect(page.text.contains("value=\"https://ntfy.sh/tally-test\""))
      #expect(page.text.contains("id=\"webhook-test\""))
      _ = try await client.post("/settings/webhook", form: [("url", ""), ("kind", "ntfy")], headers: owner)
      #expect(try await server.store.webhook(for: user) == nil)
    }
  }

  @Test func onlyTheOwnerIsOfferedTheWholeDatabase() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let member = try await client.addMember("bob", owner: owner)
      #expect(try await client.fetch("/settings", headers: owner).text.contains("id=\"backup-download\""))
      #expect(try await !client.fetch("/settings", headers: member).text.contains("id=\"backup-download\""))
    }
  }
}

@Suite struct CalendarAttributionTests {
  /// TMDB's terms: the credit is shown wherever its data is, and only then.
  @Test func theCalendarCreditsTMDBOnlyWhenAWatchedShowCameFromIt() async throws {
    let server = try TestServer()
    try await server.test { client in
      let owner = try await client.setUpOwner()
      let user = try await client.userID(owner)
      #expect(try await !client.fetch("/calendar/2026-03?country=US", headers: owner).text.contains("cal-attribution"))
      try await server.store.saveShow(
        try Show(id: UUID(), title: "Severance", status: .watching, providers: [:], tmdbID: 95396), for: user)
      let page = try await client.fetch("/calendar/2026-03?country=US", headers: owner)
      #expect(page.text.contains("not endorsed or certified by TMDB"))
    }
  }

  /// Every channel has its test: the feed is checked, each push device tested and removable
  /// by plain forms; a device another user owns is not reachable.
  @Test func pushDevicesAreListedTestedAndRemovedAndTheFeedChecked() async throws {
    try await PushReceiver.listening { base, receiver in
      var configuration = ServerConfiguration()
      configuration.push.allowLoopback = true
      let server = try TestServer(configuration: configuration)
      try await server.test { client in
        let owner = try await client.setUpOwner()
        let member = try await client.addMember("bob", owner: owner)
        let user = try await client.userID(owner)
        let phone = try await server.store.addPushSubscription(
          try TestBrowser(endpoint: base + "/push/ok/phone").subscription(name: "Phone", createdAt: testNow), for: user)
        let old = try await server.store.addPushSubscription(
          try TestBrowser(endpoint: base + "/push/gone/old").subscription(name: "Old <tablet>", createdAt: testNow), for: user)

        let page = try await client.fetch("/settings", headers: owner).text
        #expect(page.contains("id=\"push-form\""))
        #expect(page.contains("data-endpoint=\"\(base)/push/ok/phone\""))
        #expect(page.contains("Old &lt;tablet&gt;"))
        #expect(page.contains("action=\"/settings/push/\(phone.id.storeText)/test\""))

        let tested = try await client.post("/settings/push/\(phone.id.storeText)/test", form: [], headers: owner)
        #expect(tested.location == "/settings?saved=push-tested#reminders")
        #expect(receiver.requests.count == 1)
        let gone = try await client.post("/settings/push/\(old.id.storeText)/test", form: [], headers: owner)
        #expect(gone.location == "/settings?saved=push-gone#reminders")
        #expect(try await client.post("/settings/push/\(phone.id.storeText)/remove", form: [], headers: member).status == .notFound)
        let removed = try await client.post("/settings/push/\(phone.id.storeText)/remove", form: [], headers: owner)
        #expect(removed.location == "/settings?saved=push-removed#reminders")
        #expect(try await server.store.pushSubscriptions(for: user).isEmpty)

        #expect(try await client.post("/settings/feed/test", form: [], headers: owner).status == .notFound)
        _ = try await client.post("/settings/feed", form: [], headers: owner)
        let checked = try await client.post("/settings/feed/test", form: [], headers: owner)
        #expect(checked.location == "/settings?saved=feed-tested#reminders")
        #expect(try await client.fetch("/settings", headers: owner).text.contains("id=\"feed-test\""))
      }
    }
  }
}
