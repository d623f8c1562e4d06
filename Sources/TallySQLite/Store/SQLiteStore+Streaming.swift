import Foundation
import GRDB
import TallyCore
import TallyStore
import TallySync

// MARK: - Streaming

extension SQLiteStore {
  public func saveShow(_ show: Show, for user: UUID) async throws {
    try ShowRules.checkProviders(show)
    try await write(recordingFor: user) { db, sync in
      let record = ShowRecord(show, user: user)
      try ShowRules.checkTitleFree(show, among: try Self.showTitles(db, user: user))
      if let tmdbID = show.tmdbID,
        try ShowRecord.filter(
          ShowRecord.Columns.userID == record.userID && ShowRecord.Columns.tmdbID == tmdbID
            && ShowRecord.Columns.id != record.id
        ).fetchCount(db) > 0
      {
        throw StoreError.conflict("another of your shows has TMDB id \(tmdbID)")
      }
      if let existing = try ShowRecord.fetchOne(db, key: record.id) {
        guard existing.userID == record.userID else {
          throw StoreError.conflict("a show with id \(record.id) already exists")
        }
        try record.update(db)
        _ = try ShowProviderRecord.filter(ShowProviderRecord.Columns.showID == record.id)
          .deleteAll(db)
      } else {
        try record.insert(db)
      }
      for provider in ShowProviderRecord.records(show) {
        try provider.insert(db)
      }
      try sync.record(.show(show))
    }
  }

  public func show(id: UUID, for user: UUID) async throws -> Show {
    try await read { db in
      let record = try db.ownedShow(id, of: user)
      let providers = try ShowProviderRecord
        .filter(ShowProviderRecord.Columns.showID == record.id).fetchAll(db)
      return try record.show(providers: providers)
    }
  }

  public func shows(for user: UUID) async throws -> [Show] {
    try await read { db in try Self.shows(db, user: user) }
  }

  /// The user's show titles by id: what the title rule compares.
  static func showTitles(_ db: Database, user: UUID) throws -> [UUID: String] {
    var titles: [UUID: String] = [:]
    for row in try Row.fetchAll(db, sql: "SELECT id, title FROM shows WHERE user_id = ?", arguments: [user.storeText]) {
      titles[try Stored.uuid(row[0], "shows.id")] = row[1]
    }
    return titles
  }

  static func shows(_ db: Database, user: UUID) throws -> [Show] {
    try db.requireUser(user)
    let records = try ShowRecord.filter(ShowRecord.Columns.userID == user.storeText).fetchAll(db)
    let providers = try ShowProviderRecord.fetchAll(
      db,
      sql: """
        SELECT p.* FROM show_providers p JOIN shows s ON s.id = p.show_id WHERE s.user_id = ?
        """,
      arguments: [user.storeText])
    let byShow = Dictionary(grouping: providers, by: \.showID)
    return try records.map { record throws(StoreError) in
      try record.show(providers: byShow[record.id] ?? [])
    }
    .sorted(by: StoreOrder.shows)
  }

  public func deleteShow(id: UUID, for user: UUID) async throws {
    try await write(recordingFor: user) { db, sync in
      // Providers and episodes go with it: ON DELETE CASCADE.
      let deleted = try ShowRecord
        .filter(ShowRecord.Columns.id == id.storeText && ShowRecord.Columns.userID == user.storeText)
        .deleteAll(db)
      guard deleted == 1 else { throw StoreError.notFound(.show(id)) }
      try sync.record(.showDeleted(id))
    }
  }

  public func saveEpisodes(_ episodes: [Episode], for user: UUID) async throws {
    try await write(recordingFor: user) { db, sync in
      for show in Set(episodes.map(\.showID)) {
        _ = try db.ownedShow(show, of: user)
      }
      let statement = try db.cachedStatement(
        sql: """
          INSERT INTO episodes (show_id, season, number, title, air_day) VALUES (?, ?, ?, ?, ?)
          ON CONFLICT (show_id, season, number)
          DO UPDATE SET title = excluded.title, air_day = excluded.air_day
          """)
      for episode in episodes {
        let record = EpisodeRecord(episode)
        try statement.execute(arguments: [
          record.showID, record.season, record.number, record.title, record.airDay,
        ])
        try sync.record(.episode(episode))
      }
    }
  }

  public func episodes(of show: UUID, for user: UUID) async throws -> [Episode] {
    try await read { db in
      _ = try db.ownedShow(show, of: user)
      typealias C = EpisodeRecord.Columns
      return try EpisodeRecord.filter(C.showID == show.storeText)
        .order(C.season, C.number)
        .fetchAll(db)
        .map { record throws(StoreError) in try record.episode() }
    }
  }

  public func episodes(airingIn range: ClosedRange<Day>, for user: UUID) async throws -> [Episode] {
    try await read { db in
      try db.requireUser(user)
      return try EpisodeRecord.fetchAll(
        db,
        sql: """
          SELECT e.* FROM episodes e JOIN shows s ON s.id = e.show_id
          WHERE s.user_id = ? AND e.air_day BETWEEN ? AND ?
          """,
        arguments: [user.storeText, range.lowerBound.description, range.upperBound.description]
      )
      .map { record throws(StoreError) in try record.episode() }
      .sorted(by: StoreOrder.episodes)
    }
  }

  public func setPrice(_ price: Price, for user: UUID) async throws {
    try await write(recordingFor: user) { db, sync in
      try PriceRecord(price, user: user).save(db)
      try sync.record(.price(country: price.country, providerID: price.providerID, price))
    }
  }

  public func seedPrices(_ table: PriceTable, for user: UUID) async throws {
    try await write { db in
      try db.requireUser(user)
      let sync = try SyncRecorder(genesisIn: db, user: user)
      for price in table.prices {
        try PriceRecord(price, user: user).save(db)
        try sync.record(.price(country: price.country, providerID: price.providerID, price))
      }
    }
  }

  public func removePrice(country: String, providerID: Int, for user: UUID) async throws {
    try await write(recordingFor: user) { db, sync in
      // Like PriceTable.removePrice: a code that is no country prices nothing to remove.
      guard let code = try? CountryCode.normalized(country) else { return }
      guard try PriceRecord.deleteOne(
        db, key: ["user_id": user.storeText, "country": code, "provider_id": providerID])
      else { return }
      try sync.record(.price(country: code, providerID: providerID, nil))
    }
  }

  public func priceTable(for user: UUID) async throws -> PriceTable {
    try await read { db in try Self.priceTable(db, user: user) }
  }

  static func priceTable(_ db: Database, user: UUID) throws -> PriceTable {
    try db.requireUser(user)
    let prices = try PriceRecord.filter(PriceRecord.Columns.userID == user.storeText)
      .fetchAll(db)
      .map { record throws(StoreError) in try record.price() }
    return try Stored.valid("prices") { () throws(ValidationError) in try PriceTable(prices) }
  }
}
