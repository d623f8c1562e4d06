import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TallyHTTP
import TallyServer
import TallyServerTesting
import TallyStore
import TallyLocalization
import TallyWeb
import TallyCore
import Testing

@Suite struct ReminderChannelRouteTests {
  /// The feed link: made once (the secret shown then only), opens both feeds with no session,
  /// and once revoked or replaced answers 404.
  @Test func aFeedLinkOpensTheFeedsWithoutSigningInUntilRevoked() async throws {
    try await TestServer(configuration: ServerConfiguration(secureCookies: true)).test { client in
      let ada = try await client.setUpOwner()
      #expect(try await client.send(.patch, "/api/v1/settings", json: ["timeZone": "UTC"], headers: ada).status == .ok)
      _ = try await client.addHabit("Walk", ["reminder": ["type": "single", "time": "13:00"]], headers: ada)
      #expect(try await client.send(.get, "/api/v1/feeds/reminders", headers: ada).object["active"] as? Bool == false)

      var headers = ada
      headers[HTTPField.Name("Host")!] = "tally.example"
      let made = try await client.send(.post, "/api/v1/feeds/reminders", headers: headers)
      #expect(made.status == .created)
      let path = try #require(made.object["remindersPath"] as? String)
      let token = try #require(made.object["token"] as? String)
      #expect(made.object["remindersURL"] as? String == "https://tally.example" + path)
      #expect(token.count > 40)

      let feed = try await client.send(.get, path)
      #expect(feed.status == .ok)
      #expect(feed.headers[.contentType] == "text/calendar; charset=utf-8")
      #expect(feed.text.hasPrefix("BEGIN:VCALENDAR\r\n"))
      // testNow is 2026-03-08 12:00Z, so 13:00 UTC today is still ahead.
      #expect(feed.text.contains("DTSTART:20260308T130000Z\r\n"))
      #expect(feed.text.contains("SUMMARY:Walk\r\n"))
      #expect(feed.text.contains("X-WR-CALNAME:Tally reminders\r\n"))
      // The feed speaks the account's language from the next fetch on.
      #expect(try await client.send(.patch, "/api/v1/settings", json: ["language": "ja"], headers: ada).status == .ok)
      let japanese = ReminderSpeech.words(for: UserSettings(timeZone: "UTC", language: .japanese))
      #expect(try await client.send(.get, path).text.contains("X-WR-CALNAME:\(japanese.remindersCalendar)\r\n"))
      #expect(japanese.remindersCalendar != "Tally reminders")
      let episodes = try await client.send(.get, try #require(made.object["episodesPath"] as? String))
      #expect(episodes.status == .ok)

      let status = try await client.send(.get, "/api/v1/feeds/reminders", headers: ada).object
      #expect(status["active"] as? Bool == true)
      #expect(status["token"] == nil)

      // A new link replaces the old one.
      let again = try await client.send(.post, "/api/v1/feeds/reminders", headers: ada)
      #expect(try await client.send(.get, path).status == .notFound)
      let newPath = try #require(again.object["remindersPath"] as? String)
      #expect(try await client.send(.get, newPath).status == .ok)

      #expect(try await client.send(.delete, "/api/v1/feeds/reminders", headers: ada).status == .noContent)
      #expect(try await client.send(.get, newPath).status == .notFound)
      #expect(try await client.send(.delete, "/api/v1/feeds/reminders", headers: ada).status == .notFound)
      #expect(try await client.send(.get, "/feeds/tlyf_guess/reminders.ics").status == .notFound)
    }
  }

  /// Marking today done takes today's remaining reminder out of the next fetch.
  @Test func theFeedLeavesOutAHabitAlreadyDoneToday() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      #expect(try await client.send(.patch, "/api/v1/settings", json: ["timeZone": "UTC"], headers: ada).status == .ok)
      let habit = try await client.addHabit("Walk", ["reminder": ["type": "single", "time": "13:00"]], headers: ada)
      let path = try #require(try await client.send(.post, "/api/v1/feeds/reminders", headers: ada).object["remindersPath"] as? String)
      #expect(try await client.send(.get, path).text.contains("DTSTART:20260308T130000Z"))
      let id = try #require(habit["id"] as? String)
      let marked = try await client.send(.put, "/api/v1/habits/\(id)/entries/2026-03-08", json: ["status": "done"], headers: ada)
      #expect(marked.status == .ok, "\(marked.text)")
      let after = try await client.send(.get, path).text
      #expect(!after.contains("DTSTART:20260308T130000Z"))
      #expect(after.contains("DTSTART:20260309T130000Z"))
    }
  }

  /// Bob can neither see, replace nor revoke Ada's link or webhook; his own calls touch only his.
  @Test func anotherUserCannotReachTheFirstUsersFeedOrWebhook() async throws {
    try await Receiver.listening { base, _ in
      try await TestServer().test { client in
        let ada = try await client.setUpOwner()
        let bob = try await client.addMember("bob", owner: ada)
        let path = try #require(try await client.send(.post, "/api/v1/feeds/reminders", headers: ada).object["remindersPath"] as? String)
        let set = try await client.send(.put, "/api/v1/settings/webhook", json: ["url": base + "/ada", "kind": "json"], headers: ada)
        #expect(set.status == .ok)

        #expect(try await client.send(.get, "/api/v1/feeds/reminders", headers: bob).object["active"] as? Bool == false)
        #expect(try await client.send(.delete, "/api/v1/feeds/reminders", headers: bob).status == .notFound)
        #expect(try await client.send(.get, "/api/v1/settings/webhook", headers: bob).object.isEmpty)
        #expect(try await client.send(.delete, "/api/v1/settings/webhook", headers: bob).status == .notFound)
        #expect(try await client.send(.post, "/api/v1/settings/webhook/test", headers: bob).status == .notFound)

        #expect(try await client.send(.get, path).status == .ok)
        #expect(try await client.send(.get, "/api/v1/settings/webhook", headers: ada).object["url"] as? String == base + "/ada")
        #expect(try await client.send(.get, "/api/v1/feeds/reminders").status == .unauthorized)
        #expect(try await client.send(.put, "/api/v1/settings/webhook", json: ["url": base, "kind": "json"]).status == .unauthorized)
      }
    }
  }

  @Test func aWebhookIsSetCheckedTestedAndRemoved() async throws {
    try await Receiver.listening { base, receiver in
      try await TestServer().test { client in
        let ada = try await client.setUpOwner()
        let bad = try await client.send(.put, "/api/v1/settings/webhook", json: ["url": "ftp://x", "kind": "json"], headers: ada)
        #expect(bad.status == .unprocessableContent)
        #expect(bad.field == "url")
        #expect(bad.detail.contains("http"))
        let noTopic = try await client.send(.put, "/api/v1/settings/webhook", json: ["url": base, "kind": "ntfy"], headers: ada)
        #expect(noTopic.status == .unprocessableContent)
        let badKind = try await client.send(.put, "/api/v1/settings/webhook", json: ["url": base, "kind": "slack"], headers: ada)
        #expect(badKind.status.code == 400 || badKind.status.code == 422)
        #expect(try await client.send(.get, "/api/v1/settings/webhook", headers: ada).object.isEmpty)

        let set = try await client.send(.put, "/api/v1/settings/webhook", json: ["url": base + "/alerts", "kind": "ntfy"], headers: ada)
        #expect(set.object["kind"] as? String == "ntfy")
        let tested = try await client.send(.post, "/api/v1/settings/webhook/test", headers: ada)
        #expect(tested.status == .ok)
        #expect(tested.object["delivered"] as? Bool == true)
        #expect(receiver.requests.map(\.path) == ["/"])
        #expect(receiver.requests.first?.json["topic"] as? String == "alerts")

        receiver.setFailures(1)
        let refused = try await client.send(.post, "/api/v1/settings/webhook/test", headers: ada)
        #expect(refused.object["delivered"] as? Bool == false)
        #expect(refused.object["status"] as? Int == 500)

        #expect(try await client.send(.delete, "/api/v1/settings/webhook", headers: ada).status == .noContent)
        #expect(try await client.send(.post, "/api/v1/settings/webhook/test", headers: ada).status == .notFound)
      }
    }
  }

  @Test func completionsExportAsICalendar() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let habit = try await client.addHabit("Read", ["createdDay": "2026-03-01"], headers: ada)
      let id = try #require(habit["id"] as? String)
      _ = try await client.send(.put, "/api/v1/habits/\(id)/entries/2026-03-07", json: ["status": "done"], headers: ada)
      let ics = try await client.send(.get, "/api/v1/export?format=ics", headers: ada)
      #expect(ics.status == .ok)
      #expect(ics.headers[.contentType] == "text/calendar; charset=utf-8")
      #expect(ics.text.contains("UID:done/\(id)/2026-03-07@tally\r\n"))
      #expect(ics.text.contains("DTSTART;VALUE=DATE:20260307\r\n"))
      #expect(try await client.send(.get, "/api/v1/export?format=xml", headers: ada).status == .badRequest)
      #expect(try await client.send(.get, "/api/v1/export", headers: ada).headers[.contentType] == "application/json; charset=utf-8")
    }
  }
}
