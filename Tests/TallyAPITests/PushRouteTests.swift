import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TallyCore
import TallyDelivery
import TallyHTTP
import TallyPush
import TallyServer
import TallyServerTesting
import TallyStore
import Testing

@Suite struct PushRouteTests {
  static func loopbackAllowed() -> ServerConfiguration {
    var configuration = ServerConfiguration()
    configuration.push.allowLoopback = true
    return configuration
  }

  @Test func theKeyIsServedAndStaysTheSame() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let first = try await client.send(.get, "/api/v1/push/key", headers: ada)
      #expect(first.status == .ok)
      let key = try #require(first.object["publicKey"] as? String)
      #expect(Base64URL.decode(key)?.count == 65)
      #expect(try await client.send(.get, "/api/v1/push/key", headers: ada).object["publicKey"] as? String == key)
      #expect(try await client.send(.get, "/api/v1/push/key").status == .unauthorized)
    }
  }

  @Test func aBrowserSubscribesIsListedAndRemovedOnlyByItsUser() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let bob = try await client.addMember("bob", owner: ada)
      var body = TestBrowser(endpoint: "https://fcm.googleapis.com/fcm/send/abc").json
      body["name"] = "  Phone "
      let made = try await client.send(.post, "/api/v1/push/subscriptions", json: body, headers: ada)
      #expect(made.status == .created, "\(made.text)")
      #expect(made.object["name"] as? String == "Phone")
      let id = try #require(made.object["id"] as? String)
      let list = try await client.send(.get, "/api/v1/push/subscriptions", headers: ada).object["subscriptions"] as? [[String: Any]]
      #expect(list?.map { $0["id"] as? String } == [id])
      #expect((try await client.send(.get, "/api/v1/push/subscriptions", headers: bob).object["subscriptions"] as? [Any])?.isEmpty == true)
      #expect(try await client.send(.delete, "/api/v1/push/subscriptions/\(id)", headers: bob).status == .notFound)
      #expect(try await client.send(.post, "/api/v1/push/subscriptions/\(id)/test", headers: bob).status == .notFound)
      #expect(try await client.send(.delete, "/api/v1/push/subscriptions/\(id)", headers: ada).status == .noContent)
      #expect(try await client.send(.delete, "/api/v1/push/subscriptions/\(id)", headers: ada).status == .notFound)
    }
  }

  /// Each bad subscription is a 422 naming the field, and nothing is stored.
  @Test(arguments: [
    ("https://", "endpoint", "must be an https:// address"),
    ("not a url", "endpoint", "must be an https:// address"),
    ("http://push.example.net/x", "endpoint", "must use https://, not http://"),
    ("https://127.0.0.1/x", "endpoint", "loopback address"),
    ("https://localhost:8443/x", "endpoint", "loopback address"),
    ("https://[::1]/x", "endpoint", "loopback address"),
    ("https://10.1.2.3/x", "endpoint", "private or link-local"),
    ("https://192.168.0.10/x", "endpoint", "private or link-local"),
    ("https://172.20.0.1/x", "endpoint", "private or link-local"),
    ("https://169.254.169.254/latest", "endpoint", "private or link-local"),
    ("https://[fe80::1]/x", "endpoint", "private or link-local"),
    ("https://[fd00::1]/x", "endpoint", "private or link-local"),
    ("https://[::ffff:10.0.0.1]/x", "endpoint", "private or link-local"),
    ("https://router/x", "endpoint", "not a public host name"),
    ("https://printer.local/x", "endpoint", "not a public host name"),
    ("https://0x7f.1/x", "endpoint", "not a public host name"),
  ])
  func aBadEndpointIsRefused(_ endpoint: String, _ field: String, _ words: String) async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      var body = TestBrowser(endpoint: endpoint).json
      body["name"] = "Phone"
      let refused = try await client.send(.post, "/api/v1/push/subscriptions", json: body, headers: ada)
      #expect(refused.status.code == 422, "\(refused.text)")
      #expect(refused.object["field"] as? String == field)
      #expect((refused.object["detail"] as? String)?.contains(words) == true, "\(refused.object["detail"] ?? "")")
      #expect((try await client.send(.get, "/api/v1/push/subscriptions", headers: ada).object["subscriptions"] as? [Any])?.isEmpty == true)
    }
  }

  @Test func badKeysAndNamesAreRefusedByField() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let good = TestBrowser(endpoint: "https://push.example.net/x").json
      let goodKeys = try #require(good["keys"] as? [String: String])
      var offCurve = try #require(Base64URL.decode(goodKeys["p256dh"]!))
      offCurve[64] ^= 1
      let cases: [([String: Any], String)] = [
        (["p256dh": "AAAA", "auth": goodKeys["auth"]!], "keys.p256dh"),
        (["p256dh": "not base64!", "auth": goodKeys["auth"]!], "keys.p256dh"),
        (["p256dh": Base64URL.encode(offCurve), "auth": goodKeys["auth"]!], "keys.p256dh"),
        (["p256dh": goodKeys["p256dh"]!, "auth": "AAAA"], "keys.auth"),
        (["p256dh": goodKeys["p256dh"]!, "auth": goodKeys["auth"]!, "extra": "x"], "keys.extra"),
      ]
      for (keys, field) in cases {
        let refused = try await client.send(
          .post, "/api/v1/push/subscriptions", json: ["endpoint": good["endpoint"]!, "keys": keys, "name": "Phone"], headers: ada)
        #expect(refused.status.code == 422, "\(field): \(refused.text)")
        #expect(refused.object["field"] as? String == field, "\(refused.text)")
      }
      for (name, field) in [("", "name"), (String(repeating: "x", count: 101), "name")] {
        var body = good
        body["name"] = name
        let refused = try await client.send(.post, "/api/v1/push/subscriptions", json: body, headers: ada)
        #expect(refused.object["field"] as? String == field, "\(refused.text)")
      }
      var unknown = good
      unknown["name"] = "Phone"
      unknown["expirationTime"] = 5
      #expect(try await client.send(.post, "/api/v1/push/subscriptions", json: unknown, headers: ada).object["field"] as? String == "expirationTime")
      #expect((try await client.send(.get, "/api/v1/push/subscriptions", headers: ada).object["subscriptions"] as? [Any])?.isEmpty == true)
    }
  }

  /// With `--allow-loopback-push`, a stand-in on loopback is accepted and the test action
  /// reaches it; its 410 removes the subscription.
  @Test func theTestActionPushesAndAGoneSubscriptionIsRemoved() async throws {
    try await PushReceiver.listening { base, receiver in
      let server = try TestServer(configuration: Self.loopbackAllowed())
      try await server.test { client in
        let ada = try await client.setUpOwner()
        let browser = TestBrowser(endpoint: base + "/push/ok/phone")
        var body = browser.json
        body["name"] = "Phone"
        let made = try await client.send(.post, "/api/v1/push/subscriptions", json: body, headers: ada)
        let id = try #require(made.object["id"] as? String)
        let tested = try await client.send(.post, "/api/v1/push/subscriptions/\(id)/test", headers: ada)
        #expect(tested.object["delivered"] as? Bool == true, "\(tested.text)")
        let request = try #require(receiver.requests.last)
        #expect(try browser.open(request.body)["type"] as? String == "test")
        #expect(request.headers["urgency"] == "high")
        let key = try #require(try await client.send(.get, "/api/v1/push/key", headers: ada).object["publicKey"] as? String)
        try await expectVAPID(request.headers["authorization"], publicKey: key, origin: base, now: testNow)

        var goneBody = TestBrowser(endpoint: base + "/push/gone/old").json
        goneBody["name"] = "Old phone"
        let gone = try #require(try await client.send(.post, "/api/v1/push/subscriptions", json: goneBody, headers: ada).object["id"] as? String)
        let answer = try await client.send(.post, "/api/v1/push/subscriptions/\(gone)/test", headers: ada).object
        #expect(answer["delivered"] as? Bool == false)
        #expect(answer["removed"] as? Bool == true)
        let left = try await client.send(.get, "/api/v1/push/subscriptions", headers: ada).object["subscriptions"] as? [[String: Any]]
        #expect(left?.map { $0["id"] as? String } == [id])
      }
    }
  }

  /// A test to a push service that never answers waits for its own time-out only; other
  /// requests are answered meanwhile.
  @Test func aHangingPushServiceDoesNotHoldUpOtherRequests() async throws {
    try await PushReceiver.listening { base, _ in
      let server = try TestServer(configuration: Self.loopbackAllowed(), webhookTransport: HTTPWebhookTransport(timeout: 3))
      try await server.test { client in
        let ada = try await client.setUpOwner()
        var body = TestBrowser(endpoint: base + "/push/hang/phone").json
        body["name"] = "Phone"
        let id = try #require(try await client.send(.post, "/api/v1/push/subscriptions", json: body, headers: ada).object["id"] as? String)
        let answered = Flag()
        async let test: [String: Any] = {
          let answer = try await client.send(.post, "/api/v1/push/subscriptions/\(id)/test", headers: ada).object
          answered.set()
          return answer
        }()
        try await Task.sleep(for: .milliseconds(200))
        #expect(try await client.send(.get, "/api/v1/push/subscriptions", headers: ada).status == .ok)
        #expect(!answered.isSet, "the list was answered while the test still waited on the push service")
        let answer = try await test
        #expect(answer["delivered"] as? Bool == false)
        #expect((answer["detail"] as? String)?.contains("not delivered") == true)
      }
    }
  }

  final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
  }

  @Test func theServiceWorkerIsServedFromTheRoot() async throws {
    try await TestServer().test { client in
      let response = try await client.send(.get, "/sw.js")
      #expect(response.status == .ok)
      #expect(response.headers[.contentType] == "text/javascript; charset=utf-8")
      #expect(response.headers[HTTPField.Name("Service-Worker-Allowed")!] == "/")
      #expect(response.text.contains("addEventListener(\"push\""))
      #expect(response.text.contains("notificationclick"))
    }
  }
}
