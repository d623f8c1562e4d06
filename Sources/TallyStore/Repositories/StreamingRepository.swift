import Foundation
import TallyCore

/// A user's shows with their per-country providers, the episodes' air days, and the prices
/// the user pays.
public protocol StreamingRepository: Sendable {
  /// Adds the show or replaces the user's show with the same id (title, status and every
  /// country's providers, in order). ``StoreError/conflict(_:)`` when another user's show has
  /// the id, or when a country lists the same provider twice.
  func saveShow(_ show: Show, for user: UUID) async throws

  /// The user's show with this id.
  func show(id: UUID, for user: UUID) async throws -> Show

  /// The user's shows by title.
  func shows(for user: UUID) async throws -> [Show]

  /// Deletes the user's show with its providers and episodes, in one transaction.
  func deleteShow(id: UUID, for user: UUID) async throws

  /// Adds or replaces episodes, keyed by (show, season, number), in one transaction. Every
  /// episode's show must be the user's.
  func saveEpisodes(_ episodes: [Episode], for user: UUID) async throws

  /// The show's episodes by season and number.
  func episodes(of show: UUID, for user: UUID) async throws -> [Episode]

  /// Episodes of all the user's shows airing in `range` (``StoreOrder/episodes(_:_:)``).
  func episodes(airingIn range: ClosedRange<Day>, for user: UUID) async throws -> [Episode]

  /// Sets the user's price for the price's (country, provider), replacing any earlier one.
  func setPrice(_ price: Price, for user: UUID) async throws

  /// Sets the prices a new user starts with: defaults, not edits, so a price set on any
  /// replica wins over them when they meet (SPEC 11).
  func seedPrices(_ table: PriceTable, for user: UUID) async throws

  /// Removes the user's price for (country, provider); nothing happens when there is none.
  func removePrice(country: String, providerID: Int, for user: UUID) async throws

  /// All the user's prices. A store does not seed ``PriceTable/defaults``: whoever creates a
  /// user decides that.
  func priceTable(for user: UUID) async throws -> PriceTable
}
