import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import TallyCore
import TallyStore

/// One POST to a webhook.
public struct WebhookRequest: Sendable, Equatable {
  public var url: URL
  public var headers: [String: String]
  public var body: Data
}

/// Sends webhook POSTs; injected so the sender can be tested against a local receiver.
public protocol WebhookTransport: Sendable {
  /// The response's status code; throws when no response came (refused, timed out…).
  func post(_ request: WebhookRequest) async throws -> Int
}

/// POSTs through AsyncHTTPClient, which the server already carries for TMDB: Foundation's
/// URLSession would load libcurl and some thirty libraries into every `tally` process.
public struct HTTPWebhookTransport: WebhookTransport {
  public let timeout: TimeInterval
  let http: HTTPClient

  public init(timeout: TimeInterval = 10, http: HTTPClient = .shared) {
    self.timeout = timeout
    self.http = http
  }

  /// The whole exchange, answer included, gets `timeout`: a receiver that takes the request
  /// and never answers is given up on then.
  public func post(_ request: WebhookRequest) async throws -> Int {
    var outgoing = HTTPClientRequest(url: request.url.absoluteString)
    outgoing.method = .POST
    for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
    outgoing.body = .bytes(request.body)
    let deadline = NIODeadline.now() + .milliseconds(Int64(timeout * 1000))
    let response = try await http.execute(outgoing, deadline: deadline)
    // Only the status matters; the body is read (and dropped) so the connection can be reused.
    for try await _ in response.body {}
    return Int(response.status.code)
  }
}

/// What a webhook receives, in the dialect its kind asks for (docs/reminders.md).
public struct WebhookMessage: Sendable, Equatable {
  public var title: String
  public var message: String
  /// `reminder` or `test`.
  public var type: String
  public var habitId: String?
  public var habitName: String?
  public var day: Day?
  public var time: WallTime?
  public var instant: Date?
  public var key: ReminderOccurrenceKey?

  public static func reminder(
    _ occurrence: ReminderOccurrence, habitName: String, words: ReminderWords = .english
  ) -> WebhookMessage {
    WebhookMessage(
      title: habitName, message: words.message(habit: habitName, at: occurrence.time), type: "reminder",
      habitId: occurrence.habitID.uuidString.lowercased(), habitName: habitName, day: occurrence.day,
      time: occurrence.time, instant: occurrence.instant, key: occurrence.key)
  }

  public static func test(at now: Date, words: ReminderWords = .english) -> WebhookMessage {
    WebhookMessage(title: "Tally", message: words.test, type: "test", instant: now)
  }

  /// The POST for `webhook`: ntfy's JSON publishing (to the server root, naming the topic),
  /// Gotify's message object, or Tally's own object. Every kind also carries the occurrence key
  /// in `X-Tally-Key`, so a receiver can drop a retry it already has.
  public func request(for webhook: Webhook) -> WebhookRequest {
    var headers = ["Content-Type": "application/json", "User-Agent": "Tally"]
    if let key { headers["X-Tally-Key"] = key.description }
    let object: [String: Any]
    var url = webhook.url
    switch webhook.kind {
    case .ntfy:
      let topic = url.lastPathComponent
      url = url.deletingLastPathComponent()
      object = ["topic": topic, "title": title, "message": message, "tags": ["bell"]]
    case .gotify:
      var extras: [String: Any] = ["tally::type": type]
      if let key { extras["tally::key"] = key.description }
      object = ["title": title, "message": message, "priority": 5, "extras": extras]
    case .json:
      var fields: [String: Any] = ["type": type, "title": title, "message": message]
      fields["habitId"] = habitId
      fields["habitName"] = habitName
      fields["day"] = day?.description
      fields["time"] = time?.description
      fields["instant"] = instant.map(InstantText.text)
      fields["key"] = key?.description
      object = fields
    }
    let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
    return WebhookRequest(url: url, headers: headers, body: body)
  }
}
