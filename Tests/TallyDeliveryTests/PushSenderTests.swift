import Foundation
import TallyCore
import TallyLocalization
@testable import TallyDelivery
import TallyHTTP
import TallyPush
import TallySQLite
import TallyServer
import TallyServerTesting
import TallyStore
import TallyTestFiles
import TallyWeb
import Testing

/// The reminder sender pushing to browsers: against a push service on loopback, with the
/// clock in the test's hand. 08:00 in New York on Monday 9 March 2026 is 12:00Z.
@Suite struct PushSenderTests {
  struct Fixture {
    let store: any Store
    let user: User
    let walk: Habit
    let clock: ReminderSenderTests.Clock
    let keys: PushKeys

    func sender(
      timeout: TimeInterval = 5, words: @escaping @Sendable (UserSettings) -> ReminderWords = { _ in .english }
    ) -> ReminderSender {
      var settings = PushSettings()
      settings.allowLoopback = true
      settings.contact = "mailto:ops@tally.test"
      let clock = clock
      return ReminderSender(
        store: store, transport: HTTPWebhookTransport(timeout: timeout), pushKeys: keys, pushSettings: settings,
        clock: { clock.now }, logger: quiet, words: words)
    }

    func subscribe(_ browser: TestBrowser, name: String = "Phone", user: User? = nil) async throws -> PushSubscription {
      try await store.addPushSubscription(
        try browser.subscription(name: name, createdAt: Date(timeIntervalSince1970: 1_772_323_200)), for: (user ?? self.user).id)
    }

    func state(of subscription: PushSubscription, _ state: ReminderDelivery.State) async throws -> Int {
      try await store.pushDeliveries(in: state, to: subscription.id, for: user.id).count
    }
  }

  func fixture(now: String) async throws -> Fixture {
    let store = SQLiteStore(try AppDatabase.inMemory())
    let user = try await store.createUser(User(id: UUID(), name: "ada", settings: UserSettings(timeZone: "America/New_York")))
    let walk = try await store.createHabit(
      Habit(id: UUID(), name: "Walk", createdDay: Day("2026-03-01")!, reminder: .single(WallTime(hour: 8))), for: user.id)
    let clock = ReminderSenderTests.Clock(now)
    return Fixture(store: store, user: user, walk: walk, clock: clock, keys: PushKeys(store: store, clock: { clock.now }))
  }

  @Test func aDueReminderIsPushedOnceToEachDeviceEncryptedAndSigned() async throws {
    try await PushReceiver.listening { base, receiver in
      let f = try await fixture(now: "2026-03-09T11:59:50Z")
      let phone = TestBrowser(endpoint: base + "/push/ok/phone")
      let laptop = TestBrowser(endpoint: base + "/push/ok/laptop")
      _ = try await f.subscribe(phone)
      _ = try await f.subscribe(laptop, name: "Laptop")
      await f.sender().tick()
      #expect(receiver.requests.isEmpty)
      f.clock.set("2026-03-09T12:00:10Z")
      await f.sender().tick()
      await f.sender().tick()
      #expect(receiver.requests.count == 2)
      let publicKey = try await f.keys.key().publicKeyText
      for (browser, path) in [(phone, "/push/ok/phone"), (laptop, "/push/ok/laptop")] {
        let request = try #require(receiver.requests.first { $0.path == path })
        #expect(request.headers["content-encoding"] == "aes128gcm")
        #expect(request.headers["ttl"] == "3600")
        #expect(request.headers["urgency"] == "normal")
        try await expectVAPID(request.headers["authorization"], publicKey: publicKey, origin: base, now: f.clock.now)
        let payload = try browser.open(request.body)
        #expect(payload["title"] as? String == "Walk")
        #expect(payload["body"] as? String == "Time for Walk (08:00).")
        #expect(payload["key"] as? String == "\(f.walk.id.uuidString.lowercased())/2026-03-09/08:00")
        #expect(payload["url"] as? String == "/today")
      }
    }
  }

  /// The words the server gives the sender: the account's language, whatever its locale.
  @Test func aReminderSpeaksTheAccountsLanguage() async throws {
    try await PushReceiver.listening { base, receiver in
      let f = try await fixture(now: "2026-03-09T12:00:10Z")
      var settings = f.user.settings
      settings.language = .german
      _ = try await f.store.updateSettings(settings, for: f.user.id)
      let phone = TestBrowser(endpoint: base + "/push/ok/phone")
      _ = try await f.subscribe(phone)
      await f.sender(words: ReminderSpeech.words(for:)).tick()
      let request = try #require(receiver.requests.first)
      #expect(try phone.open(request.body)["body"] as? String == "Zeit für Walk (08:00).")
    }
  }

  @Test func aHabitDoneBeforeItsReminderIsNotPushed() async throws {
    try await PushReceiver.listening { base, receiver in
      let f = try await fixture(now: "2026-03-09T12:00:10Z")
      _ = try await f.subscribe(TestBrowser(endpoint: base + "/push/ok/phone"))
      try await f.store.setDays([Day("2026-03-09")!], of: f.walk.id, to: .done, note: nil, for: f.user.id)
      await f.sender().tick()
      #expect(receiver.requests.isEmpty)
    }
  }

  @Test func aSubscriptionThePushServiceSaysIsGoneIsRemoved() async throws {
    try await PushReceiver.listening { base, receiver in
      let f = try await fixture(now: "2026-03-09T12:00:10Z")
      let gone = try await f.subscribe(TestBrowser(endpoint: base + "/push/gone/a"), name: "Old phone")
      let missing = try await f.subscribe(TestBrowser(endpoint: base + "/push/missing/b"), name: "Old laptop")
      let kept = try await f.subscribe(TestBrowser(endpoint: base + "/push/ok/c"), name: "Tablet")
      await f.sender().tick()
      #expect(receiver.requests.count == 3)
      let left = try await f.store.pushSubscriptions(for: f.user.id).map(\.id)
      #expect(left == [kept.id])
      #expect(!left.contains(gone.id) && !left.contains(missing.id))
    }
  }

  /// A push service answering 500 is retried with back-off; one that never answers costs only
  /// its own time-out. Neither holds up another device or another user.
  @Test func aFailingOrHangingPushServiceDelaysNothingElse() async throws {
    try await PushReceiver.listening { base, receiver in
      let f = try await fixture(now: "2026-03-09T12:00:10Z")
      let bob = try await f.store.createUser(User(id: UUID(), name: "bob", settings: UserSettings(timeZone: "America/New_York")))
      _ = try await f.store.createHabit(
        Habit(id: UUID(), name: "Stretch", createdDay: Day("2026-03-01")!, reminder: .single(WallTime(hour: 8))), for: bob.id)
      let failing = try await f.subscribe(TestBrowser(endpoint: base + "/push/fail/a"), name: "Failing")
      _ = try await f.subscribe(TestBrowser(endpoint: base + "/push/hang/b"), name: "Hanging")
      _ = try await f.subscribe(TestBrowser(endpoint: base + "/push/ok/c"), name: "Tablet")
      _ = try await f.subscribe(TestBrowser(endpoint: base + "/push/ok/bob"), name: "Bob's phone", user: bob)

      // The hanging service never answers while the test runs; its time-out is 3 s.
      let started = Date()
      await f.sender(timeout: 3).tick()
      #expect(Date().timeIntervalSince(started) < 30, "the hanging service costs its time-out, not for ever")
      let arrived = Dictionary(receiver.requests.map { ($0.path, $0.arrived) }, uniquingKeysWith: min)
      let hang = try #require(arrived["/push/hang/b"])
      // Had they waited for the hanging one, they would have come at least 3 s after it.
      #expect(try #require(arrived["/push/ok/c"]).timeIntervalSince(hang) < 2, "Ada's other device is not kept waiting")
      #expect(try #require(arrived["/push/ok/bob"]).timeIntervalSince(hang) < 2, "Bob is not kept waiting")
      #expect(try await f.state(of: failing, .retrying) == 1)

      // 30 s later the failing service is tried again; this time the retry goes through the
      // same claim, and nothing is sent twice to the devices that took it.
      f.clock.set("2026-03-09T12:00:45Z")
      await f.sender(timeout: 3).tick()
      #expect(receiver.requests.filter { $0.path == "/push/fail/a" }.count == 2)
      #expect(receiver.requests.filter { $0.path == "/push/ok/c" }.count == 1)
      #expect(receiver.requests.filter { $0.path == "/push/ok/bob" }.count == 1)
    }
  }

  /// The key pair is made once and kept: a sender on the same store signs with the same key.
  @Test func theVAPIDKeyIsMadeOnFirstStartAndKept() async throws {
    let path = TestFiles.database("vapid")
    let first = try await PushKeys(store: SQLiteStore(try AppDatabase.open(at: path)), clock: { Date() }).key()
    let second = try await PushKeys(store: SQLiteStore(try AppDatabase.open(at: path)), clock: { Date() }).key()
    #expect(first.publicKeyText == second.publicKeyText)
  }
}
