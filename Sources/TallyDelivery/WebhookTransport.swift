import Foundation
import TallyCore
import TallyStore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

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

/// Foundation's URLSession (libcurl on Linux): no extra package, enough for one small POST.
public struct URLSessionWebhookTransport: WebhookTransport {
  public let timeout: TimeInterval

  public init(timeout: TimeInterval = 10) {
    self.timeout = timeout
  }

  public func post(_ request: WebhookRequest) async throws -> Int {
    var urlRequest = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
    urlRequest.httpMethod = "POST"
    for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
    urlRequest.httpBody = request.body
    // URLRequest's time-out is an idle time-out, and on Linux a receiver that takes the
    // request and never answers was seen to hold it far longer; the whole exchange gets
    // `timeout`, then it is cancelled.
    let (timeout, prepared) = (self.timeout, urlRequest)
    return try await withThrowingTaskGroup(of: Int.self) { group in
      group.addTask {
        let (_, response) = try await URLSession.shared.data(for: prepared)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return http.statusCode
      }
      group.addTask {
        try await Task.sleep(for: .seconds(timeout))
        throw URLError(.timedOut)
      }
      defer { group.cancelAll() }
      return try await group.next()!
    }
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

  public static func reminder(_ occurrence: ReminderOccurrence, habitName: String) -> WebhookMessage {
    WebhookMessage(
      title: habitName, message: "Time for \(habitName) (\(occurrence.time)).", type: "reminder",
      habitId: occurrence.habitID.uuidString.lowercased(), habitName: habitName, day: occurrence.day,
      time: occurrence.time, instant: occurrence.instant, key: occurrence.key)
  }

  public static func test(at now: Date) -> WebhookMessage {
    WebhookMessage(
      title: "Tally", message: "This is a test notification from Tally: reminders will arrive here.",
      type: "test", instant: now)
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
