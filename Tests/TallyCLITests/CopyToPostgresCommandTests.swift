import Foundation
import TallyCore
import TallyPostgres
import TallyPostgresTesting
import TallySQLite
import TallyStore
import TallySync
import Testing

/// `tally copy-to-postgres`: every table arrives, the copy answers every read as the file
/// did, and a database that already has users is refused.
@Suite(.enabled(if: PostgresTesting.url != nil, Comment(rawValue: PostgresTesting.skipped)))
struct CopyToPostgresCommandTests {
  @Test func everythingIsCopiedVerifiedAndReadBackAlike() async throws {
    let harness = Harness()
    let read = try await harness.addHabit("Read")
    await harness.ok("mark", "Read", "2026-03-07")
    await harness.ok("mark", "Read", "2026-03-08", "--note", "two chapters")
    // A measurable habit on a schedule of its own, with a description and exact amounts.
    let run = try await harness.addHabit(
      "Run", "--target", "5.5", "--unit", "km", "--at-most", "--schedule", "1 in 3 days", "--description", "Flat",
      "--created", "2026-03-01")
    await harness.ok("mark", "Run", "4.125", "2026-03-07")
    await harness.ok("habit", "add", "Swim", "--schedule", "2 a month")
    // A weekday schedule, a pause of one habit and one of all.
    await harness.ok("habit", "add", "Gym", "--weekdays", "mon,thu")
    await harness.ok("pause", "Read", "--from", "2026-03-01", "--until", "2026-03-02")
    await harness.ok("pause", "--all", "--from", "2026-04-01")
    await harness.ok("journal", "2026-03-08", "A quiet Sunday.")
    await harness.ok("chat", "first")
    await harness.ok("chat", "second")
    var withPassword = harness
    withPassword.input = ["a long enough password"]
    _ = await withPassword.ok("user", "add", "bob")
    // Rows no command writes: tokens, sessions, channels, deliveries and push.
    let sqlite = SQLiteStore(try AppDatabase.open(at: harness.path))
    let ada = try await harness.user()
    let now = Date(timeIntervalSince1970: 1_772_971_200)
    let hash = String(repeating: "ab", count: 32)
    _ = try await sqlite.createAPIToken(
      try APIToken(id: UUID(), userID: ada.id, tokenHash: hash, name: "script", createdAt: now))
    _ = try await sqlite.createSession(
      try BrowserSession(
        id: UUID(), userID: ada.id, tokenHash: String(repeating: "cd", count: 32), createdAt: now,
        expiresAt: now.addingTimeInterval(3600)))
    try await sqlite.setFeedToken(hash: String(repeating: "ef", count: 32), createdAt: now, for: ada.id)
    try await sqlite.setWebhook(try Webhook(url: "https://ntfy.example/tally", kind: .ntfy, since: now), for: ada.id)
    let key = try #require(ReminderOccurrenceKey("\(read.storeText)/2026-03-08/07:00"))
    #expect(try await sqlite.recordDelivery(key, sentAt: now, for: ada.id))
    let subscription = try await sqlite.addPushSubscription(
      try PushSubscription(
        id: UUID(), endpoint: "https://push.example.net/send/abc", p256dh: Data([4] + Array(repeating: 7, count: 64)),
        auth: Data(repeating: 9, count: 16), name: "Phone", createdAt: now), for: ada.id)
    let vapid = try await sqlite.vapidPrivateKey(orMake: { Data(repeating: 5, count: 32) }, createdAt: now)
    // A name locked out by five wrong passwords a minute ago.
    let guessed = String(repeating: "0f", count: 32)
    for second in 0..<5 {
      _ = try await sqlite.claimSignInAttempt(
        guessed, at: now.addingTimeInterval(Double(second - 60)), limit: 5, window: 900)
    }

    let url = try PostgresTesting.freshURL()
    let copied = await harness.run("copy-to-postgres", url)
    #expect(copied.status == 0, "\(copied.stderr)")
    #expect(copied.stdout.contains("habit_entries: 3 rows, 3 copied"))
    #expect(copied.stdout.contains("sign_in_attempts: 5 rows, 5 copied"))
    #expect(copied.stdout.contains("pauses: 2 rows, 2 copied"))
    #expect(copied.stdout.contains("verified"))

    let postgres = PostgresStore(try await PostgresTesting.open(try PostgresLocation(url: url)))
    for user in try await sqlite.users() {
      #expect(try await postgres.snapshot(of: user.id) == (try await sqlite.snapshot(of: user.id)))
      #expect(try await postgres.credential(for: user.id) == (try await sqlite.credential(for: user.id)))
      // The same device and the same feed: devices go on syncing as before.
      let (feed, copiedFeed) = (
        try await sqlite.syncChanges(for: user.id, after: 0, limit: 1_000),
        try await postgres.syncChanges(for: user.id, after: 0, limit: 1_000)
      )
      #expect(copiedFeed == feed)
    }
    #expect(try await postgres.syncDevice() == (try await sqlite.syncDevice()))
    #expect(try await postgres.habit(id: run, for: ada.id).measure?.direction == .atMost)
    #expect(
      try await postgres.entries(of: run, for: ada.id).map(\.amount) == [Amount(thousandths: 4_125)])
    #expect(try await postgres.apiToken(hash: hash, at: now) == (try await sqlite.apiToken(hash: hash, at: now)))
    #expect(try await postgres.feedOwner(hash: String(repeating: "ef", count: 32)) == ada.id)
    #expect(try await postgres.webhook(for: ada.id) == (try await sqlite.webhook(for: ada.id)))
    #expect(try await postgres.delivery(key, for: ada.id) == now)
    #expect(try await postgres.pushSubscriptions(for: ada.id) == [subscription])
    #expect(try await postgres.vapidPrivateKey(orMake: { Data(repeating: 1, count: 32) }, createdAt: now) == vapid)
    // The lock-out survives the move, and a new attempt takes an id after the copied ones.
    #expect(
      try await postgres.claimSignInAttempt(guessed, at: now, limit: 5, window: 900)
        == .refused(until: now.addingTimeInterval(840)))
    guard case .counted(let fresh) = try await postgres.claimSignInAttempt("another", at: now, limit: 5, window: 900)
    else {
      Issue.record("another name was refused")
      return
    }
    #expect(fresh.rawValue > 5)
    // A later write through the copy takes the next feed position, after the copied ones.
    let before = try await postgres.syncChanges(for: ada.id, after: 0, limit: 1_000).position
    try await postgres.setDay(Day("2026-03-06")!, of: read, to: .done, for: ada.id)
    #expect(try await postgres.syncChanges(for: ada.id, after: before, limit: 10).changes.map(\.id) == [
      SyncID.entry(read, Day("2026-03-06")!)
    ])

    let again = await harness.run("copy-to-postgres", url)
    #expect(again.status != 0)
    #expect(again.stderr.contains("already holds users"))
  }
}
