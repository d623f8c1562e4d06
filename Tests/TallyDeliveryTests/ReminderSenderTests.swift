import Foundation
import Logging
import TallyCore
@testable import TallyDelivery
import TallyHTTP
import TallySQLite
import TallyServer
import TallyServerTesting
import TallyStore
import TallyTestFiles
import TallyTestWaiting
import Testing

/// The sender logs every retry and drop; the tests check the records instead.
let quiet: Logger = {
  var logger = Logger(label: "tally.reminders.tests")
  logger.logLevel = .critical
  return logger
}()

/// The webhook sender against a real receiver on loopback, with the clock in the test's hand.
@Suite struct ReminderSenderTests {
  final class Clock: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Date
    init(_ text: String) { value = ISO8601DateFormatter().date(from: text)! }
    var now: Date { lock.withLock { value } }
    func set(_ text: String) { lock.withLock { value = ISO8601DateFormatter().date(from: text)! } }
  }

  struct Fixture {
    let store: any Store
    let user: User
    let walk: Habit
    let clock: Clock

    func sender(_ clock: Clock? = nil) -> ReminderSender {
      let clock = clock ?? self.clock
      var policy = ReminderSender.Policy()
      policy.firstRetry = 30
      return ReminderSender(
        store: store, transport: HTTPWebhookTransport(timeout: 5), clock: { clock.now }, policy: policy,
        logger: quiet)
    }

    func state(_ day: String, _ time: String, habit: Habit? = nil) async throws -> ReminderDelivery.State? {
      let key = ReminderOccurrenceKey(habitID: (habit ?? walk).id, day: Day(day)!, time: try WallTime(parsing: time))
      return try await store.deliveryRecord(key, for: user.id)?.state
    }
  }

  /// Ada in New York, "Walk" at 08:00 every day, a webhook set on 2026-03-01.
  func fixture(
    _ base: String, kind: Webhook.Kind = .json, now: String, store: (any Store)? = nil
  ) async throws -> Fixture {
    let store = try store ?? SQLiteStore(AppDatabase.inMemory())
    let user = try await store.createUser(User(id: UUID(), name: "ada", settings: UserSettings(timeZone: "America/New_York")))
    let walk = try await store.createHabit(
      Habit(id: UUID(), name: "Walk", createdDay: Day("2026-03-01")!, reminder: .single(WallTime(hour: 8))), for: user.id)
    let path = kind == .ntfy ? "/reminders-topic" : "/hook"
    try await store.setWebhook(
      Webhook(url: base + path, kind: kind, since: ISO8601DateFormatter().date(from: "2026-03-01T00:00:00Z")!), for: user.id)
    return Fixture(store: store, user: user, walk: walk, clock: Clock(now))
  }

  @Test func aDueReminderIsPostedOnceWithItsKey() async throws {
    try await Receiver.listening { base, receiver in
      // 08:00 EDT on Monday 9 March is 12:00Z: not yet at 11:59:50, sent at 12:00:10.
      let f = try await fixture(base, now: "2026-03-09T11:59:50Z")
      await f.sender().tick()
      #expect(receiver.requests.isEmpty)
      f.clock.set("2026-03-09T12:00:10Z")
      await f.sender().tick()
      await f.sender().tick()
      #expect(receiver.requests.count == 1)
      let json = try #require(receiver.requests.first).json
      #expect(json["type"] as? String == "reminder")
      #expect(json["habitName"] as? String == "Walk")
      #expect(json["day"] as? String == "2026-03-09")
      #expect(json["instant"] as? String == "2026-03-09T12:00:00.000Z")
      #expect(json["key"] as? String == "\(f.walk.id.uuidString.lowercased())/2026-03-09/08:00")
      #expect(receiver.requests.first?.headers["x-tally-key"] == json["key"] as? String)
      #expect(try await f.state("2026-03-09", "08:00") == .sent)
    }
  }

  /// New York springs forward on Sunday 8 March: 02:30 does not exist and rings at 03:00 EDT.
  @Test func aReminderInsideTheDSTGapIsSentWhenTheGapEnds() async throws {
    try await Receiver.listening { base, receiver in
      let f = try await fixture(base, now: "2026-03-08T06:59:59Z")
      var early = f.walk
      early.reminder = .single(try WallTime(hour: 2, minute: 30))
      _ = try await f.store.updateHabit(early, for: f.user.id)
      await f.sender().tick()
      #expect(receiver.requests.isEmpty)
      f.clock.set("2026-03-08T07:00:05Z")
      await f.sender().tick()
      #expect(receiver.requests.map { $0.json["instant"] as? String } == ["2026-03-08T07:00:00.000Z"])
    }
  }

  @Test func aHabitDoneOrAWeekThatMetItsGoalIsNotReminded() async throws {
    try await Receiver.listening { base, receiver in
      let f = try await fixture(base, now: "2026-03-11T12:00:30Z")
      let gym = try await f.store.createHabit(
        Habit(id: UUID(), name: "Gym", createdDay: Day("2026-03-01")!, frequency: .weekly(targetPerWeek: 2),
          reminder: .single(WallTime(hour: 8))), for: f.user.id)
      try await f.store.setDay(Day("2026-03-11")!, of: f.walk.id, to: .done, for: f.user.id)
      // Gym's week (Sunday 8 March on) met its goal on Monday and Tuesday.
      for done in ["2026-03-09", "2026-03-10"] {
        try await f.store.setDay(Day(done)!, of: gym.id, to: .done, for: f.user.id)
      }
      await f.sender().tick()
      #expect(receiver.requests.isEmpty)
      #expect(try await f.state("2026-03-11", "08:00") == nil)
      #expect(try await f.state("2026-03-11", "08:00", habit: gym) == nil)
    }
  }

  /// The server was down at 08:00: 40 minutes late it still sends, 90 minutes late it logs
  /// the occurrence as dropped and never sends it.
  @Test func missedWhileDownUnderAnHourIsSentOverAnHourIsDropped() async throws {
    try await Receiver.listening { base, receiver in
      let f = try await fixture(base, now: "2026-03-09T12:40:00Z")
      await f.sender().tick()
      #expect(receiver.requests.count == 1)
      #expect(try await f.state("2026-03-09", "08:00") == .sent)

      f.clock.set("2026-03-10T13:30:00Z")
      await f.sender().tick()
      #expect(receiver.requests.count == 1)
      #expect(try await f.state("2026-03-10", "08:00") == .dropped)
      f.clock.set("2026-03-10T13:31:00Z")
      await f.sender().tick()
      #expect(receiver.requests.count == 1)
    }
  }

  /// A restart (a new database connection and a new sender on the same file) sends nothing
  /// twice, and an occurrence a crash left claimed but unconfirmed is not sent again.
  @Test func aRestartSendsNothingTwice() async throws {
    let path = TestFiles.database("sender")
    try await Receiver.listening { base, receiver in
      let f = try await fixture(base, now: "2026-03-09T12:00:30Z", store: SQLiteStore(try AppDatabase.open(at: path)))
      await f.sender().tick()
      #expect(receiver.requests.count == 1)
      let crashed = ReminderDelivery(
        key: ReminderOccurrenceKey(habitID: f.walk.id, day: Day("2026-03-10")!, time: try WallTime(hour: 8)),
        state: .sending, dueAt: ISO8601DateFormatter().date(from: "2026-03-10T12:00:00Z")!, attempts: 0,
        updatedAt: ISO8601DateFormatter().date(from: "2026-03-10T12:00:00Z")!)
      #expect(try await f.store.claimDelivery(crashed, for: f.user.id))

      let reopened = SQLiteStore(try AppDatabase.open(at: path))
      let clock = Clock("2026-03-10T12:00:30Z")
      let restarted = ReminderSender(store: reopened, clock: { clock.now }, logger: quiet)
      await restarted.tick()
      clock.set("2026-03-09T12:00:40Z")
      await restarted.tick()
      #expect(receiver.requests.count == 1)
      #expect(try await reopened.deliveryRecord(crashed.key, for: f.user.id)?.state == .sending)
    }
  }

  /// 500, 500, then 200: retried after 30 s and 60 s more, each time only when due.
  @Test func aFailingWebhookIsRetriedWithBackOff() async throws {
    try await Receiver.listening(failFirst: 2) { base, receiver in
      let f = try await fixture(base, kind: .gotify, now: "2026-03-09T12:00:00Z")
      let sender = f.sender()
      await sender.tick()
      #expect(receiver.requests.count == 1)
      #expect(try await f.state("2026-03-09", "08:00") == .retrying)
      f.clock.set("2026-03-09T12:00:20Z")
      await sender.tick()
      #expect(receiver.requests.count == 1)
      f.clock.set("2026-03-09T12:00:31Z")
      await sender.tick()
      #expect(receiver.requests.count == 2)
      f.clock.set("2026-03-09T12:01:21Z")
      await sender.tick()
      #expect(receiver.requests.count == 2)
      f.clock.set("2026-03-09T12:01:32Z")
      await sender.tick()
      #expect(receiver.requests.count == 3)
      #expect(try await f.state("2026-03-09", "08:00") == .sent)
      let record = try #require(try await f.store.deliveryRecord(
        ReminderOccurrenceKey(habitID: f.walk.id, day: Day("2026-03-09")!, time: try WallTime(hour: 8)), for: f.user.id))
      #expect(record.attempts == 3)
      // Gotify's shape: title, message, priority.
      let json = receiver.requests[0].json
      #expect(json["title"] as? String == "Walk")
      #expect(json["priority"] as? Int == 5)
      #expect(receiver.requests[0].path == "/hook")
    }
  }

  /// A receiver that never recovers: retries stop an hour after the reminder was due; a
  /// reminder marked done meanwhile stops its retries at once.
  @Test func retriesGiveUpAfterAnHourAndStopWhenTheHabitIsDone() async throws {
    try await Receiver.listening(failFirst: 1000) { base, receiver in
      let f = try await fixture(base, kind: .ntfy, now: "2026-03-09T12:00:00Z")
      let sender = f.sender()
      var minute = 0
      while minute <= 70 {
        f.clock.set("2026-03-09T\(12 + minute / 60):\(String(format: "%02d", minute % 60)):00Z")
        await sender.tick()
        minute += 1
      }
      #expect(try await f.state("2026-03-09", "08:00") == .failed)
      let attempts = receiver.requests.count
      #expect(attempts == 10)
      // ntfy: posted to the server root, naming the topic.
      #expect(receiver.requests[0].path == "/")
      #expect(receiver.requests[0].json["topic"] as? String == "reminders-topic")

      f.clock.set("2026-03-10T12:00:00Z")
      await sender.tick()
      #expect(try await f.state("2026-03-10", "08:00") == .retrying)
      try await f.store.setDay(Day("2026-03-10")!, of: f.walk.id, to: .done, for: f.user.id)
      f.clock.set("2026-03-10T12:01:00Z")
      await sender.tick()
      #expect(try await f.state("2026-03-10", "08:00") == .cancelled)
      #expect(receiver.requests.count == attempts + 1)
    }
  }

  /// The service loop ticks between injected sleeps and ends when its task is cancelled.
  @Test func runTicksUntilCancelled() async throws {
    try await Receiver.listening { base, receiver in
      let f = try await fixture(base, now: "2026-03-09T12:00:05Z")
      let sleeps = Counter()
      let sender = ReminderSender(
        store: f.store, clock: { f.clock.now },
        sleep: { _ in
          sleeps.increment()
          try await Task.sleep(for: .milliseconds(5))
        },
        logger: quiet)
      let task = Task { try await sender.run() }
      try await eventually("the sender did not sleep three times", every: .milliseconds(5)) { sleeps.value >= 3 }
      task.cancel()
      _ = await task.result
      #expect(receiver.requests.count == 1)
    }
  }

  final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
  }
}
