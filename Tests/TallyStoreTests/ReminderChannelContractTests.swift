import Foundation
import TallyCore
import TallyStore
import Testing

@Suite struct ReminderChannelContractTests {
  let hashA = String(repeating: "a1", count: 32)
  let hashB = String(repeating: "b2", count: 32)

  @Test(arguments: StoreFactory.all)
  func aFeedTokenIsFoundByItsHashReplacedAndRevoked(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let bob = try await makeUser(store, "bob")
    #expect(try await store.feedTokenCreatedAt(for: ada.id) == nil)
    try await store.setFeedToken(hash: hashA.uppercased(), createdAt: instant("2026-03-08T10:00:00.123Z"), for: ada.id)
    #expect(try await store.feedOwner(hash: hashA) == ada.id)
    #expect(try await store.feedTokenCreatedAt(for: ada.id) == instant("2026-03-08T10:00:00.123Z"))
    // Another user cannot take the same hash; the owner's link is untouched.
    await #expect(throws: StoreError.self) {
      try await store.setFeedToken(hash: hashA, createdAt: instant("2026-03-08T10:00:00Z"), for: bob.id)
    }
    #expect(try await store.feedOwner(hash: hashA) == ada.id)
    // A new link replaces the old one.
    try await store.setFeedToken(hash: hashB, createdAt: instant("2026-03-09T10:00:00Z"), for: ada.id)
    #expect(try await store.feedOwner(hash: hashA) == nil)
    #expect(try await store.feedOwner(hash: hashB) == ada.id)
    #expect(try await store.deleteFeedToken(for: bob.id) == false)
    #expect(try await store.deleteFeedToken(for: ada.id))
    #expect(try await store.feedOwner(hash: hashB) == nil)
    await #expect(throws: StoreError.invalid(ValidationError(field: "token hash", rule: "must be a hex digest of 32 to 128 digits, never the token itself"))) {
      try await store.setFeedToken(hash: "tlyf_secret", createdAt: instant("2026-03-08T10:00:00Z"), for: ada.id)
    }
    await #expect(throws: StoreError.notFound(.user(UUID(uuidString: "00000000-0000-4000-8000-000000000000")!))) {
      try await store.setFeedToken(hash: hashA, createdAt: instant("2026-03-08T10:00:00Z"), for: UUID(uuidString: "00000000-0000-4000-8000-000000000000")!)
    }
  }

  @Test(arguments: StoreFactory.all)
  func aWebhookIsKeptPerUser(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let bob = try await makeUser(store, "bob")
    let hook = try Webhook(url: "https://ntfy.sh/ada-habits", kind: .ntfy, since: instant("2026-03-08T10:00:00.5Z"))
    try await store.setWebhook(hook, for: ada.id)
    #expect(try await store.webhook(for: ada.id) == hook)
    #expect(try await store.webhook(for: bob.id) == nil)
    let gotify = try Webhook(url: "https://push.example/message?token=abc", kind: .gotify, since: instant("2026-03-09T10:00:00Z"))
    try await store.setWebhook(gotify, for: bob.id)
    let all = try await store.webhooks()
    #expect(all.count == 2)
    #expect(Set(all.map(\.user)) == [ada.id, bob.id])
    #expect(all.first { $0.user == bob.id }?.webhook == gotify)
    #expect(try await store.deleteWebhook(for: ada.id))
    #expect(try await store.deleteWebhook(for: ada.id) == false)
    #expect(try await store.webhooks().map(\.user) == [bob.id])
  }

  @Test func aWebhookAddressMustBeHTTPWithAHost() throws {
    let now = instant("2026-03-08T10:00:00Z")
    for bad in ["", "ntfy.sh/topic", "ftp://example.com/x", "http://", "javascript:alert(1)"] {
      #expect(throws: ValidationError.self, "\(bad)") { try Webhook(url: bad, kind: .json, since: now) }
    }
    #expect(throws: ValidationError.self) { try Webhook(url: "https://ntfy.sh/", kind: .ntfy, since: now) }
    #expect(throws: ValidationError.self) { try Webhook(url: "https://x.example/" + String(repeating: "a", count: 2000), kind: .json, since: now) }
    #expect(try Webhook(url: " http://127.0.0.1:8080/hook ", kind: .json, since: now).url.absoluteString == "http://127.0.0.1:8080/hook")
  }

  /// The sender's record: only the first claim wins, updates keep every field, a listing by
  /// state is in due order, and another user sees none of it.
  @Test(arguments: StoreFactory.all)
  func deliveriesAreClaimedOnceAndUpdated(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let bob = try await makeUser(store, "bob")
    let habit = try await addHabit(store, for: ada)
    let key = ReminderOccurrenceKey(habitID: habit.id, day: day("2026-03-08"), time: try WallTime(hour: 8))
    let earlier = ReminderOccurrenceKey(habitID: habit.id, day: day("2026-03-07"), time: try WallTime(hour: 8))
    var claim = ReminderDelivery(
      key: key, state: .sending, dueAt: instant("2026-03-08T07:00:00Z"), attempts: 0, updatedAt: instant("2026-03-08T07:00:01Z"))
    #expect(try await store.claimDelivery(claim, for: ada.id))
    #expect(try await store.claimDelivery(claim, for: ada.id) == false)
    #expect(try await store.recordDelivery(key, sentAt: instant("2026-03-08T07:00:02Z"), for: ada.id) == false)
    #expect(try await store.deliveryRecord(key, for: ada.id) == claim)

    claim.state = .retrying
    claim.attempts = 1
    claim.nextAttemptAt = instant("2026-03-08T07:00:31.250Z")
    claim.updatedAt = instant("2026-03-08T07:00:01.5Z")
    try await store.updateDelivery(claim, for: ada.id)
    #expect(try await store.deliveryRecord(key, for: ada.id) == claim)
    #expect(try await store.recordDelivery(earlier, sentAt: instant("2026-03-07T07:00:00Z"), for: ada.id))
    let old = try #require(try await store.deliveryRecord(earlier, for: ada.id))
    #expect(old.state == .sent && old.dueAt == instant("2026-03-07T07:00:00Z"))
    #expect(try await store.deliveries(in: .retrying, for: ada.id) == [claim])
    #expect(try await store.deliveries(in: .sent, for: ada.id).map(\.key) == [earlier])

    #expect(try await store.deliveryRecord(key, for: bob.id) == nil)
    #expect(try await store.deliveries(in: .retrying, for: bob.id) == [])
    await #expect(throws: StoreError.notFound(.habit(habit.id))) { try await store.claimDelivery(claim, for: bob.id) }
    await #expect(throws: StoreError.notFound(.reminderDelivery(key.description))) { try await store.updateDelivery(claim, for: bob.id) }
    #expect(try await store.deliveryRecord(key, for: ada.id) == claim)
  }
}
