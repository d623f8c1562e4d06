import Foundation
import TallyCore

extension InMemoryStore {
  public func setFeedToken(hash: String, createdAt: Date, for user: UUID) throws {
    try requireUser(user)
    let hash = try StoreError.validating { () throws(ValidationError) in try FeedTokenHash.checked(hash) }
    if feedTokensByUser.contains(where: { $0.key != user && $0.value.hash == hash }) {
      throw StoreError.conflict("a feed link with this hash already exists")
    }
    feedTokensByUser[user] = FeedToken(hash: hash, createdAt: StoredInstant.normalized(createdAt))
  }

  public func deleteFeedToken(for user: UUID) throws -> Bool {
    try requireUser(user)
    return feedTokensByUser.removeValue(forKey: user) != nil
  }

  public func feedTokenCreatedAt(for user: UUID) throws -> Date? {
    try requireUser(user)
    return feedTokensByUser[user]?.createdAt
  }

  public func feedOwner(hash: String) -> UUID? {
    let hash = hash.lowercased()
    return feedTokensByUser.first { $0.value.hash == hash }?.key
  }

  public func setWebhook(_ webhook: Webhook, for user: UUID) throws {
    try requireUser(user)
    webhooksByUser[user] = webhook
  }

  public func deleteWebhook(for user: UUID) throws -> Bool {
    try requireUser(user)
    return webhooksByUser.removeValue(forKey: user) != nil
  }

  public func webhook(for user: UUID) throws -> Webhook? {
    try requireUser(user)
    return webhooksByUser[user]
  }

  public func webhooks() -> [(user: UUID, webhook: Webhook)] {
    webhooksByUser.map { (user: $0.key, webhook: $0.value) }.sorted { $0.user.uuidString < $1.user.uuidString }
  }
}
