import Foundation
import TallyCore
import TallyStore
import Testing

@Suite struct ReminderChannelCommandTests {
  /// `--ics` prints the same feed the server publishes: Berlin falls back on 2026-10-25, so
  /// 07:00 is 05:00Z the day before and 06:00Z that day.
  @Test func remindersPrintsTheFeedAsICalendar() async throws {
    let tally = Harness(now: "2026-10-24T00:00:00Z", timeZone: "Europe/Berlin")
    _ = try await tally.addHabit("Stretch", "--reminder", "07:00")
    let ics = await tally.ok("reminders", "--days", "2", "--ics")
    let starts = ics.components(separatedBy: "\r\n").filter { $0.hasPrefix("DTSTART") }
    #expect(starts == ["DTSTART:20261024T050000Z", "DTSTART:20261025T060000Z"])
    #expect(ics.hasSuffix("END:VCALENDAR\r\n"))
    let both = await tally.run("reminders", "--ics", "--json")
    #expect(both.status == 64)
  }

  @Test func aWebhookIsSetShownAndRemoved() async throws {
    let tally = Harness()
    #expect(await tally.ok("reminders", "webhook").hasPrefix("No webhook"))
    let set = await tally.ok("reminders", "webhook", "https://ntfy.sh/ada-habits", "--kind", "ntfy")
    #expect(set == "From now on reminders go to https://ntfy.sh/ada-habits (ntfy) while 'tally serve' runs.\n")
    let json = try #require(try await tally.run("reminders", "webhook", "--json").json() as? [String: Any])
    #expect(json["url"] as? String == "https://ntfy.sh/ada-habits")
    #expect(json["kind"] as? String == "ntfy")
    #expect(json["since"] as? String == "2026-03-08T12:00:00.000Z")

    let before = try await tally.snapshot()
    let bad = await tally.run("reminders", "webhook", "ntfy.sh/x")
    #expect(bad.status == 64)
    #expect(bad.stderr.contains("http:// or https://"))
    #expect(try await tally.snapshot() == before)
    let user = try await tally.user()
    #expect(try await tally.store().webhook(for: user.id)?.url.absoluteString == "https://ntfy.sh/ada-habits")

    #expect(await tally.ok("reminders", "webhook", "--remove") == "Reminders are no longer sent to a webhook.\n")
    #expect(try await tally.store().webhook(for: user.id) == nil)
  }

  @Test func testNamesTheWebhookThatDidNotAnswer() async throws {
    let tally = Harness()
    let none = await tally.run("reminders", "test")
    #expect(none.status == 1)
    #expect(none.stderr.contains("no webhook"))
    // Port 1 on loopback refuses at once.
    await tally.ok("reminders", "webhook", "http://127.0.0.1:1/hook")
    let refused = await tally.run("reminders", "test")
    #expect(refused.status == 69)
    #expect(refused.stderr.hasPrefix("Error: The test notification did not reach http://127.0.0.1:1/hook"))
  }

  @Test func exportWritesCompletedDaysAsICalendar() async throws {
    let tally = Harness()
    let id = try await tally.addHabit("Read", "--created", "2026-03-07")
    await tally.ok("mark", "Read", "2026-03-07", "--note", "Dune, part 1")
    await tally.ok("mark", "Read", "--skip")
    let ics = await tally.ok("export", "--format", "ics")
    #expect(ics.components(separatedBy: "BEGIN:VEVENT").count == 2)
    #expect(ics.contains("UID:done/\(id.uuidString.lowercased())/2026-03-07@tally\r\n"))
    #expect(ics.contains("DESCRIPTION:Dune\\, part 1\r\n"))
    let path = tally.folder.appendingPathComponent("done.ics").path
    await tally.ok("export", "--out", path)
    #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("BEGIN:VCALENDAR\r\n"))
  }
}

@Suite struct PushDeviceCommandTests {
  /// Browsers subscribe through the server; the command line lists, tests and removes them.
  @Test func devicesAreListedTestedAndRemoved() async throws {
    let tally = Harness()
    #expect(await tally.ok("reminders", "push").hasPrefix("No devices receive reminders"))
    let user = try await tally.user()
    let store = try tally.store()
    // A real P-256 point is needed to encrypt; this one is RFC 8291's example browser key.
    let key = Data(base64Encoded: "BCVxsr7N/eNgVRqvHtD0zTZsEc6+VV+JvLexhqUzORcxaOzi6+AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4=")!
    let phone = try await store.addPushSubscription(
      try PushSubscription(
        id: UUID(), endpoint: "https://127.0.0.1:1/send/abc", p256dh: key, auth: Data(count: 16), name: "Phone",
        createdAt: Date(timeIntervalSince1970: 1_772_971_200)), for: user.id)
    let list = await tally.ok("reminders", "push", "list")
    #expect(list.contains("Phone") && list.contains("127.0.0.1") && list.contains(phone.id.storeText))
    let json = try #require(try await tally.run("reminders", "push", "list", "--json").json() as? [[String: Any]])
    #expect(json.first?["name"] as? String == "Phone")

    let missing = await tally.run("reminders", "push", "test", "Laptop")
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("There is no push device 'Laptop'"))
    // Loopback is refused unless TALLY_ALLOW_LOOPBACK_PUSH=1: the test says so, sends
    // nothing, and the device stays.
    let failed = await tally.run("reminders", "push", "test", "phone")
    #expect(failed.status == 69)
    #expect(failed.stderr.contains("was not delivered: the endpoint is on a loopback address"), "\(failed.stderr)")
    #expect(try await store.pushSubscriptions(for: user.id).count == 1)

    #expect(await tally.ok("reminders", "push", "remove", phone.id.storeText) == "'Phone' no longer receives reminders.\n")
    #expect(try await store.pushSubscriptions(for: user.id).isEmpty)
  }
}
