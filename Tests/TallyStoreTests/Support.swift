import Foundation
import TallyCore
import TallyPostgres
import TallyPostgresTesting
import TallySQLite
import TallyStore
import TallyTestFiles
import TallyTestWaiting
import Testing

/// One way to make an empty store. The contract tests run once per factory, so every
/// implementation is held to the same behaviour.
struct StoreFactory: Sendable, CustomTestStringConvertible {
  let name: String
  let make: @Sendable () async throws -> any Store

  var testDescription: String { name }

  static let all: [StoreFactory] =
    [
      StoreFactory(name: "SQLite in memory") { SQLiteStore(try AppDatabase.inMemory()) },
      StoreFactory(name: "SQLite file") {
        SQLiteStore(try AppDatabase.open(at: TestFiles.database("contract")))
      },
    ] + (PostgresTesting.url == nil ? [] : [StoreFactory(name: "PostgreSQL") { try await PostgresTesting.store() }])
}

func day(_ text: String) -> Day {
  guard let day = Day(text) else { preconditionFailure("bad day \(text)") }
  return day
}

func days(_ texts: String...) -> [Day] { texts.map(day) }

/// An instant from RFC 3339 text, for readable fixtures.
func instant(_ text: String) -> Date {
  let formatter = ISO8601DateFormatter()
  formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
  if let date = formatter.date(from: text) { return date }
  formatter.formatOptions = [.withInternetDateTime]
  guard let date = formatter.date(from: text) else { preconditionFailure("bad instant \(text)") }
  return date
}

let berlin = UserSettings(timeZone: "Europe/Berlin", daySwitchHour: 3, firstWeekday: .monday)

@discardableResult
func makeUser(_ store: any Store, _ name: String = "ada") async throws -> User {
  try await store.createUser(User(id: UUID(), name: name, settings: berlin))
}

func makeHabit(
  _ name: String = "Read", created: String = "2026-01-01", frequency: Frequency = .daily,
  sortOrder: Int = 0, archived: Bool = false
) -> Habit {
  try! Habit(
    id: UUID(), name: name, createdDay: day(created), frequency: frequency, archived: archived,
    sortOrder: sortOrder)
}

@discardableResult
func addHabit(
  _ store: any Store, for user: User, _ name: String = "Read", sortOrder: Int = 0,
  archived: Bool = false
) async throws -> Habit {
  try await store.createHabit(
    makeHabit(name, sortOrder: sortOrder, archived: archived), for: user.id)
}

func show(
  _ title: String, status: ShowStatus = .watching, providers: [String: [Provider]] = [:]
) -> Show {
  try! Show(id: UUID(), title: title, status: status, providers: providers)
}

func provider(_ id: Int, _ name: String, logo: String? = nil) -> Provider {
  try! Provider(id: id, name: name, logoURL: logo.flatMap(URL.init(string:)))
}

func episode(_ show: Show, _ season: Int, _ number: Int, _ airDay: String) -> Episode {
  try! Episode(
    showID: show.id, season: season, number: number, title: "S\(season)E\(number)",
    airDay: day(airDay))
}

let hashA = String(repeating: "a1", count: 32)
let hashB = String(repeating: "b2", count: 32)
let hashC = String(repeating: "c3", count: 32)

func price(_ country: String, _ providerID: Int, _ amount: String, _ currency: String) -> Price {
  try! Price(
    country: country, providerID: providerID, amount: Decimal(string: amount)!, currency: currency)
}

/// ``eventually(_:within:every:_:)`` at the pace of a store's own background work: a
/// millisecond at a time, failing after 30 s.
func until(_ condition: () -> Bool) async throws {
  try await eventually(within: .seconds(30), every: .milliseconds(1)) { condition() }
}
