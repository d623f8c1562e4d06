import Foundation
import TallyCore
import TallyStore
import Testing

func pushSubscription(
  _ endpoint: String = "https://push.example.net/send/abc", name: String = "Phone",
  createdAt: Date = instant("2026-03-08T10:00:00Z")
) throws -> PushSubscription {
  try PushSubscription(
    id: UUID(), endpoint: endpoint, p256dh: Data([4] + Array(repeating: 7, count: 64)),
    auth: Data(repeating: 9, count: 16), name: name, createdAt: createdAt)
}

@Suite struct PushContractTests {
  @Test(arguments: StoreFactory.all)
  func theVAPIDKeyIsMadeOnceAndKept(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let first = try await store.vapidPrivateKey(orMake: { Data(repeating: 1, count: 32) }, createdAt: Date())
    let second = try await store.vapidPrivateKey(orMake: { Data(repeating: 2, count: 32) }, createdAt: Date())
    #expect(first == Data(repeating: 1, count: 32))
    #expect(second == first)
  }

  @Test(arguments: StoreFactory.all)
  func subscriptionsArePerUserAndOneBrowserIsOneSubscription(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let bob = try await makeUser(store, "bob")
    let phone = try await store.addPushSubscription(try pushSubscription(), for: ada.id)
    let laptop = try await store.addPushSubscription(
      try pushSubscription("https://push.example.net/send/def", name: "Laptop", createdAt: instant("2026-03-09T10:00:00Z")),
      for: ada.id)
    #expect(try await store.pushSubscriptions(for: ada.id).map(\.name) == ["Phone", "Laptop"])
    #expect(try await store.pushSubscriptions(for: bob.id).isEmpty)

    // The same browser subscribing again keeps its id and takes the new keys and name.
    let again = try await store.addPushSubscription(try pushSubscription(name: "My phone"), for: ada.id)
    #expect(again.id == phone.id)
    #expect(try await store.pushSubscriptions(for: ada.id).map(\.name).sorted() == ["Laptop", "My phone"])

    // Bob cannot remove Ada's; when Bob subscribes on Ada's laptop, it becomes his.
    #expect(try await store.deletePushSubscription(laptop.id, for: bob.id) == false)
    let shared = try await store.addPushSubscription(try pushSubscription("https://push.example.net/send/def"), for: bob.id)
    #expect(shared.id != laptop.id)
    #expect(try await store.pushSubscriptions(for: ada.id).map(\.id) == [phone.id])
    #expect(try await store.allPushSubscriptions().map(\.user).sorted { $0.storeText < $1.storeText }
      == [ada.id, bob.id].sorted { $0.storeText < $1.storeText })
    #expect(try await store.deletePushSubscription(phone.id, for: ada.id))
    #expect(try await store.deletePushSubscription(phone.id, for: ada.id) == false)
  }

  @Test(arguments: StoreFactory.all)
  func deliveriesAreClaimedOncePerSubscriptionAndGoWithIt(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    let bob = try await makeUser(store, "bob")
    let habit = try await addHabit(store, for: ada)
    let phone = try await store.addPushSubscription(try pushSubscription(), for: ada.id)
    let laptop = try await store.addPushSubscription(try pushSubscription("https://push.example.net/b"), for: ada.id)
    let key = ReminderOccurrenceKey(habitID: habit.id, day: day("2026-03-08"), time: try WallTime(hour: 8))
    let claim = ReminderDelivery(key: key, state: .sending, dueAt: instant("2026-03-08T07:00:00Z"), attempts: 0, updatedAt: instant("2026-03-08T07:00:05Z"))
    #expect(try await store.claimPushDelivery(claim, to: phone.id, for: ada.id))
    #expect(try await store.claimPushDelivery(claim, to: phone.id, for: ada.id) == false)
    #expect(try await store.claimPushDelivery(claim, to: laptop.id, for: ada.id), "each browser has its own claim")
    await #expect(throws: StoreError.notFound(.habit(habit.id))) {
      try await store.claimPushDelivery(claim, to: phone.id, for: bob.id)
    }

    var retry = claim
    retry.state = .retrying
    retry.attempts = 1
    retry.nextAttemptAt = instant("2026-03-08T07:00:35Z")
    try await store.updatePushDelivery(retry, to: phone.id, for: ada.id)
    #expect(try await store.pushDeliveries(in: .retrying, to: phone.id, for: ada.id) == [retry])
    #expect(try await store.pushDeliveries(in: .retrying, to: laptop.id, for: ada.id).isEmpty)
    await #expect(throws: StoreError.self) { try await store.updatePushDelivery(retry, to: phone.id, for: bob.id) }

    #expect(try await store.deletePushSubscription(phone.id, for: ada.id))
    await #expect(throws: StoreError.notFound(.reminderDelivery(key.description))) {
      try await store.updatePushDelivery(retry, to: phone.id, for: ada.id)
    }
    await #expect(throws: StoreError.notFound(.pushSubscription(phone.id))) {
      try await store.claimPushDelivery(claim, to: phone.id, for: ada.id)
    }
  }

  @Test func aSubscriptionIsCheckedFieldByField() {
    let key = Data([4] + Array(repeating: 7, count: 64))
    let auth = Data(count: 16)
    func refusal(_ endpoint: String, _ p256dh: Data, _ auth: Data, _ name: String) -> String? {
      do {
        _ = try PushSubscription(id: UUID(), endpoint: endpoint, p256dh: p256dh, auth: auth, name: name, createdAt: Date())
        return nil
      } catch { return error.field }
    }
    #expect(refusal("https://push.example/x", key, auth, "Phone") == nil)
    #expect(refusal("push.example/x", key, auth, "Phone") == "endpoint")
    #expect(refusal("ftp://push.example/x", key, auth, "Phone") == "endpoint")
    #expect(refusal("https://" + String(repeating: "a", count: 2000), key, auth, "Phone") == "endpoint")
    #expect(refusal("https://push.example/x", key.prefix(64), auth, "Phone") == "keys.p256dh")
    #expect(refusal("https://push.example/x", Data([2]) + key.dropFirst(), auth, "Phone") == "keys.p256dh")
    #expect(refusal("https://push.example/x", key, Data(count: 12), "Phone") == "keys.auth")
    #expect(refusal("https://push.example/x", key, auth, "  ") == "name")
    #expect(refusal("https://push.example/x", key, auth, "a\u{7}b") == "name")
  }
}
