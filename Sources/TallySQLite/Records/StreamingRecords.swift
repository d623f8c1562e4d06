import Foundation
import GRDB
import TallyCore
import TallyStore

/// A row of `shows`; its providers are rows of `show_providers`.
struct ShowRecord: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "shows"

  var id: String
  var userID: String
  var title: String
  var status: String
  var tmdbID: Int?

  enum CodingKeys: String, CodingKey, ColumnExpression {
    case id
    case userID = "user_id"
    case title, status
    case tmdbID = "tmdb_id"
  }

  typealias Columns = CodingKeys

  init(_ show: Show, user: UUID) {
    id = show.id.storeText
    userID = user.storeText
    title = show.title
    status = show.status.rawValue
    tmdbID = show.tmdbID
  }

  func show(providers: [ShowProviderRecord]) throws(StoreError) -> Show {
    let what = "show \(id)"
    let id = try Stored.uuid(id, "shows.id")
    guard let status = ShowStatus(rawValue: status) else {
      throw .corrupt("\(what) has status '\(self.status)'")
    }
    var byCountry: [String: [Provider]] = [:]
    for row in providers.sorted(by: { ($0.country, $0.position) < ($1.country, $1.position) }) {
      byCountry[row.country, default: []].append(try row.provider())
    }
    return try Stored.valid(what) { () throws(ValidationError) in
      try Show(id: id, title: title, status: status, providers: byCountry, tmdbID: tmdbID)
    }
  }
}

/// A row of `show_providers`: one provider of a show in one country, at a position in its list.
struct ShowProviderRecord: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "show_providers"

  var showID: String
  var country: String
  var position: Int
  var providerID: Int
  var name: String
  var logoURL: String?

  enum CodingKeys: String, CodingKey, ColumnExpression {
    case showID = "show_id"
    case country, position
    case providerID = "provider_id"
    case name
    case logoURL = "logo_url"
  }

  typealias Columns = CodingKeys

  static func records(_ show: Show) -> [ShowProviderRecord] {
    show.providers.flatMap { country, providers in
      providers.enumerated().map { position, provider in
        ShowProviderRecord(
          showID: show.id.storeText, country: country, position: position,
          providerID: provider.id, name: provider.name,
          logoURL: provider.logoURL?.absoluteString)
      }
    }
  }

  func provider() throws(StoreError) -> Provider {
    let what = "provider \(providerID) of show \(showID)"
    var logo: URL?
    if let logoURL {
      guard let url = URL(string: logoURL) else { throw .corrupt("\(what) has logo '\(logoURL)'") }
      logo = url
    }
    return try Stored.valid(what) { () throws(ValidationError) in
      try Provider(id: providerID, name: name, logoURL: logo)
    }
  }
}

/// A row of `episodes`.
struct EpisodeRecord: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "episodes"

  var showID: String
  var season: Int
  var number: Int
  var title: String
  var airDay: String

  enum CodingKeys: String, CodingKey, ColumnExpression {
    case showID = "show_id"
    case season, number, title
    case airDay = "air_day"
  }

  typealias Columns = CodingKeys

  init(_ episode: Episode) {
    showID = episode.showID.storeText
    season = episode.season
    number = episode.number
    title = episode.title
    airDay = episode.airDay.description
  }

  func episode() throws(StoreError) -> Episode {
    let what = "episode \(season)x\(number) of show \(showID)"
    let showID = try Stored.uuid(showID, "episodes.show_id")
    let airDay = try Stored.day(airDay, "\(what) air_day")
    return try Stored.valid(what) { () throws(ValidationError) in
      try Episode(showID: showID, season: season, number: number, title: title, airDay: airDay)
    }
  }
}

/// A row of `prices`. The amount is decimal text (`17.99`) so it comes back exact.
struct PriceRecord: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "prices"

  var userID: String
  var country: String
  var providerID: Int
  var amount: String
  var currency: String

  enum CodingKeys: String, CodingKey, ColumnExpression {
    case userID = "user_id"
    case country
    case providerID = "provider_id"
    case amount, currency
  }

  typealias Columns = CodingKeys

  init(_ price: Price, user: UUID) {
    userID = user.storeText
    country = price.country
    providerID = price.providerID
    amount = price.amount.description
    currency = price.currency
  }

  func price() throws(StoreError) -> Price {
    let what = "price of provider \(providerID) in \(country)"
    guard let amount = Decimal(string: amount, locale: Locale(identifier: "en_US_POSIX")) else {
      throw .corrupt("\(what) has amount '\(self.amount)'")
    }
    return try Stored.valid(what) { () throws(ValidationError) in
      try Price(country: country, providerID: providerID, amount: amount, currency: currency)
    }
  }
}
