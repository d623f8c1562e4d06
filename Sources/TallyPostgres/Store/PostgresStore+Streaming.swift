import Foundation
import PostgresNIO
import TallyCore
import TallyStore
import TallySync

// MARK: - Streaming

extension PostgresStore {
  public func saveShow(_ show: Show, for user: UUID) async throws {
    try ShowRules.checkProviders(show)
    try await write(recordingFor: user) { connection, sync in
      // The user's row is locked first, so two requests adding one title at once are
      // checked one after the other.
      try await connection.run("SELECT 1 FROM users WHERE id = \(user) FOR UPDATE")
      var titles: [UUID: String] = [:]
      for row in try await connection.rows("SELECT id, title FROM shows WHERE user_id = \(user)") {
        titles[try row["id"].decode(UUID.self)] = try row["title"].decode(String.self)
      }
      try ShowRules.checkTitleFree(show, among: titles)
      try await connection.saveShow(show, user: user)
      try await sync.record(.show(show))
    }
  }

  public func show(id: UUID, for user: UUID) async throws -> Show {
    try await read { connection in
      guard let row = try await connection.rows("SELECT * FROM shows WHERE id = \(id) AND user_id = \(user)").first
      else { throw StoreError.notFound(.show(id)) }
      return try PostgresRows.show(
        row, providers: try await connection.rows("SELECT * FROM show_providers WHERE show_id = \(id)"))
    }
  }

  public func shows(for user: UUID) async throws -> [Show] {
    try await read { connection in try await connection.shows(of: user) }
  }

  public func deleteShow(id: UUID, for user: UUID) async throws {
    try await write(recordingFor: user) { connection, sync in
      // Providers and episodes go with it: ON DELETE CASCADE.
      let deleted = try await connection.run("DELETE FROM shows WHERE id = \(id) AND user_id = \(user) RETURNING 1")
      guard deleted == 1 else { throw StoreError.notFound(.show(id)) }
      try await sync.record(.showDeleted(id))
    }
  }

  public func saveEpisodes(_ episodes: [Episode], for user: UUID) async throws {
    try await write(recordingFor: user) { connection, sync in
      for show in Set(episodes.map(\.showID)) { try await connection.requireShow(show, of: user) }
      try await connection.saveEpisodes(episodes)
      try await sync.record(episodes.map(SyncRecord.episode))
    }
  }

  public func episodes(of show: UUID, for user: UUID) async throws -> [Episode] {
    try await read { connection in
      try await connection.requireShow(show, of: user)
      return try await connection.rows("SELECT * FROM episodes WHERE show_id = \(show) ORDER BY season, number")
        .map(PostgresRows.episode)
    }
  }

  public func episodes(airingIn range: ClosedRange<Day>, for user: UUID) async throws -> [Episode] {
    try await read { connection in
      try await connection.requireUser(user)
      return try await connection.rows(
        """
        SELECT e.* FROM episodes e JOIN shows s ON s.id = e.show_id
        WHERE s.user_id = \(user) AND e.air_day BETWEEN \(range.lowerBound.description) AND \(range.upperBound.description)
        """
      ).map(PostgresRows.episode).sorted(by: StoreOrder.episodes)
    }
  }

  public func setPrice(_ price: Price, for user: UUID) async throws {
    try await write(recordingFor: user) { connection, sync in
      try await connection.savePrice(price, user: user)
      try await sync.record(.price(country: price.country, providerID: price.providerID, price))
    }
  }

  public func seedPrices(_ table: PriceTable, for user: UUID) async throws {
    try await write { connection in
      try await connection.lockUser(user)
      let sync = try await PostgresSyncRecorder(genesisIn: connection, user: user)
      for price in table.prices {
        try await connection.savePrice(price, user: user)
        try await sync.record(.price(country: price.country, providerID: price.providerID, price))
      }
    }
  }

  public func removePrice(country: String, providerID: Int, for user: UUID) async throws {
    try await write(recordingFor: user) { connection, sync in
      // Like PriceTable.removePrice: a code that is no country prices nothing to remove.
      guard let code = try? CountryCode.normalized(country) else { return }
      let removed = try await connection.run(
        """
        DELETE FROM prices WHERE user_id = \(user) AND country = \(code) AND provider_id = \(providerID) RETURNING 1
        """)
      guard removed == 1 else { return }
      try await sync.record(.price(country: code, providerID: providerID, nil))
    }
  }

  public func priceTable(for user: UUID) async throws -> PriceTable {
    try await read { connection in try await connection.priceTable(of: user) }
  }
}

extension PostgresConnection {
  func shows(of user: UUID) async throws -> [Show] {
    try await requireUser(user)
    let shows = try await rows("SELECT * FROM shows WHERE user_id = \(user)")
    let providers = try await rows(
      "SELECT p.* FROM show_providers p JOIN shows s ON s.id = p.show_id WHERE s.user_id = \(user)")
    var byShow: [UUID: [PostgresRandomAccessRow]] = [:]
    for row in providers { byShow[try row["show_id"].decode(UUID.self), default: []].append(row) }
    return try shows.map { row in try PostgresRows.show(row, providers: byShow[try row["id"].decode(UUID.self)] ?? []) }
      .sorted(by: StoreOrder.shows)
  }

  /// Adds the show or replaces the user's show with the same id, providers and all.
  func saveShow(_ show: Show, user: UUID) async throws {
    if let tmdbID = show.tmdbID,
      try await exists(
        "SELECT EXISTS (SELECT 1 FROM shows WHERE user_id = \(user) AND tmdb_id = \(tmdbID) AND id <> \(show.id))")
    {
      throw StoreError.conflict("another of your shows has TMDB id \(tmdbID)")
    }
    let owner = try await values("SELECT user_id FROM shows WHERE id = \(show.id)", as: UUID.self).first
    if let owner {
      guard owner == user else { throw StoreError.conflict("a show with id \(show.id.storeText) already exists") }
      try await run(
        """
        UPDATE shows SET title = \(show.title), status = \(show.status.rawValue), tmdb_id = \(show.tmdbID)
        WHERE id = \(show.id)
        """)
      try await run("DELETE FROM show_providers WHERE show_id = \(show.id)")
    } else {
      try await run(
        """
        INSERT INTO shows (id, user_id, title, status, tmdb_id)
        VALUES (\(show.id), \(user), \(show.title), \(show.status.rawValue), \(show.tmdbID))
        """)
    }
    for (country, providers) in show.providers {
      for (position, provider) in providers.enumerated() {
        try await run(
          """
          INSERT INTO show_providers (show_id, country, position, provider_id, name, logo_url)
          VALUES (\(show.id), \(country), \(position), \(provider.id), \(provider.name), \(provider.logoURL?.absoluteString))
          """)
      }
    }
  }

  /// Adds or replaces episodes, keyed by (show, season, number), in one statement.
  func saveEpisodes(_ episodes: [Episode]) async throws {
    // One statement may not touch a row twice: an episode listed again wins, as it would one by one.
    var latest: [String: Episode] = [:]
    for episode in episodes { latest["\(episode.showID) \(episode.season) \(episode.number)"] = episode }
    let episodes = Array(latest.values)
    guard !episodes.isEmpty else { return }
    try await run(
      """
      INSERT INTO episodes (show_id, season, number, title, air_day)
      SELECT * FROM unnest(\(episodes.map(\.showID))::uuid[], \(episodes.map(\.season))::integer[],
        \(episodes.map(\.number))::integer[], \(episodes.map(\.title))::text[], \(episodes.map(\.airDay.description))::text[])
      ON CONFLICT (show_id, season, number) DO UPDATE SET title = excluded.title, air_day = excluded.air_day
      """)
  }

  func savePrice(_ price: Price, user: UUID) async throws {
    try await run(
      """
      INSERT INTO prices (user_id, country, provider_id, amount, currency)
      VALUES (\(user), \(price.country), \(price.providerID), \(price.amount.description), \(price.currency))
      ON CONFLICT (user_id, country, provider_id) DO UPDATE SET amount = excluded.amount, currency = excluded.currency
      """)
  }

  func priceTable(of user: UUID) async throws -> PriceTable {
    try await requireUser(user)
    let prices = try await rows("SELECT * FROM prices WHERE user_id = \(user)").map(PostgresRows.price)
    return try Stored.valid("prices") { () throws(ValidationError) in try PriceTable(prices) }
  }
}
