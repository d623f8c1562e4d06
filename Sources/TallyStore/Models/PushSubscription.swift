import Foundation
import TallyCore

/// One browser that receives the user's reminders by Web Push (RFC 8030): where its push
/// service takes messages, and the keys the messages are encrypted to (RFC 8291).
///
/// This checks the shape only. Whether the server may post to the endpoint (https, not a
/// private address) is the server's rule, since a setting relaxes it for tests.
public struct PushSubscription: Hashable, Sendable {
  public let id: UUID
  public let endpoint: URL
  /// The browser's P-256 public key, an uncompressed point.
  public let p256dh: Data
  /// The browser's authentication secret.
  public let auth: Data
  /// What the user calls this device ("Phone", "Work laptop").
  public let name: String
  /// When it was added: reminders due before then are not sent to it.
  public let createdAt: Date

  public static let maxEndpointLength = 2000
  public static let maxNameLength = 100

  public init(
    id: UUID, endpoint text: String, p256dh: Data, auth: Data, name: String, createdAt: Date
  ) throws(ValidationError) {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard trimmed.utf8.count <= Self.maxEndpointLength else {
      throw ValidationError(field: "endpoint", rule: "must be at most \(Self.maxEndpointLength) characters long")
    }
    guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(),
      scheme == "https" || scheme == "http", let host = url.host, !host.isEmpty, url.user == nil
    else {
      throw ValidationError(field: "endpoint", rule: "must be an https:// address with a host, not '\(trimmed)'")
    }
    guard p256dh.count == 65, p256dh.first == 0x04 else {
      throw ValidationError(
        field: "keys.p256dh", rule: "must be an uncompressed P-256 public key (65 bytes starting 0x04), not \(p256dh.count) bytes")
    }
    guard auth.count == 16 else {
      throw ValidationError(field: "keys.auth", rule: "must be a 16-byte secret, not \(auth.count) bytes")
    }
    let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !name.isEmpty else { throw ValidationError(field: "name", rule: "must not be empty") }
    // Counted as JSON Schema's maxLength counts: code points.
    guard name.unicodeScalars.count <= Self.maxNameLength else {
      throw ValidationError(field: "name", rule: "must be at most \(Self.maxNameLength) characters long")
    }
    guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
      throw ValidationError(field: "name", rule: "must not contain control characters")
    }
    self.id = id
    self.endpoint = url
    self.p256dh = p256dh
    self.auth = auth
    self.name = name
    self.createdAt = StoredInstant.normalized(createdAt)
  }
}
