import Foundation
import HTTPTypes
import HummingbirdTesting
import TallyHTTP
import TallyServer
import TallyServerTesting
import Testing

/// Issue 17, points 8 and 9: valid JSON with a number or a `null` a field cannot take is a 422
/// that names the field and says what is wrong, never "not valid JSON" or a silent 0.
@Suite struct StrictJSONTests {
  @Test(arguments: [
    (#"{"daySwitchHour": 2.5}"#, "daySwitchHour", "must be a whole number, not 2.5"),
    (#"{"daySwitchHour": 1e400}"#, "daySwitchHour", "1e400 is too large a number"),
    (#"{"daySwitchHour": -0.0}"#, "daySwitchHour", "-0.0 is negative zero; write 0"),
    (#"{"daySwitchHour": 1e-400}"#, "daySwitchHour", "1e-400 is too small a number"),
    // Valid JSON, past any integer: the field's own range, as any other wrong hour gets.
    (
      #"{"daySwitchHour": 99999999999999999999999999999}"#, "daySwitchHour",
      "must be a whole number from 0 to 6, not 99999999999999999999999999999"
    ),
    (#"{"daySwitchHour": -1e20}"#, "daySwitchHour", "must be a whole number from 0 to 6, not -1e20"),
    // One past the integers' ends, which a Double cannot tell from the ends themselves.
    (
      #"{"daySwitchHour": -9223372036854775809}"#, "daySwitchHour",
      "must be a whole number from 0 to 6, not -9223372036854775809"
    ),
    (
      #"{"daySwitchHour": 9223372036854775808}"#, "daySwitchHour",
      "must be a whole number from 0 to 6, not 9223372036854775808"
    ),
  ])
  func aSettingsNumberOfTheWrongKindIsNamed(body: String, field: String, words: String) async throws {
    try await TestServer().test { client in
      let token = try await client.bearer(try await client.setUpOwner())
      let response = try await client.send(.patch, "/api/v1/settings", json: body, headers: token)
      #expect(response.status == .unprocessableContent, "\(body)")
      #expect(response.field == field)
      #expect(response.detail.contains(words), "\(response.detail)")
      // Nothing changed.
      #expect(try await client.send(.get, "/api/v1/settings", headers: token).object["daySwitchHour"] as? Int == 0)
    }
  }

  @Test(arguments: [
    (#"{"name": "Read", "frequency": {"type": "weekly", "targetPerWeek": 99999999999999999999}}"#,
     "frequency.targetPerWeek", "from 1 to 6"),
    (#"{"name": "Read", "frequency": {"type": "weekly", "targetPerWeek": -9223372036854775809}}"#,
     "frequency.targetPerWeek", "from 1 to 6"),
    (#"{"name": "Read", "frequency": {"type": "monthly", "timesPerMonth": 9223372036854775808}}"#,
     "frequency.timesPerMonth", "from 1 to"),
    (#"{"name": "Read", "reminder": {"type": "periodic", "start": "08:00", "end": "20:00", "everyHours": 1e19}}"#,
     "reminder.everyHours", "from 1 to 23"),
  ])
  func aHabitNumberPastAnyIntegerIsNamedWithItsRange(body: String, field: String, words: String) async throws {
    try await TestServer().test { client in
      let token = try await client.bearer(try await client.setUpOwner())
      let response = try await client.send(.post, "/api/v1/habits", json: body, headers: token)
      #expect(response.status == .unprocessableContent, "\(body)")
      #expect(response.field == field)
      #expect(response.detail.contains("must be a whole number \(words)"), "\(response.detail)")
      #expect(try await client.send(.get, "/api/v1/habits", headers: token).array.isEmpty)
    }
  }

  @Test func aPriceTooSmallToKeepIsNamed() async throws {
    try await TestServer().test { client in
      let token = try await client.bearer(try await client.setUpOwner())
      let response = try await client.send(
        .put, "/api/v1/prices/US/8", json: #"{"amount": 1.11e-308, "currency": "USD"}"#, headers: token)
      #expect(response.status == .unprocessableContent)
      #expect(response.field == "amount")
      #expect(response.detail.contains("too small"), "\(response.detail)")
    }
  }

  @Test func aNumberDeepInsideABodyIsNamedByItsPath() async throws {
    try await TestServer().test { client in
      let token = try await client.bearer(try await client.setUpOwner())
      let show = try await client.send(.post, "/api/v1/shows", json: ["title": "Severance"], headers: token)
      let id = try #require(show.object["id"] as? String)
      let body = #"{"episodes": [{"season": 1, "number": 1, "title": "a", "airDay": "2026-01-01"}, {"season": 1.5, "number": 2, "title": "b", "airDay": "2026-01-02"}]}"#
      let response = try await client.send(.put, "/api/v1/shows/\(id)/episodes", json: body, headers: token)
      #expect(response.status == .unprocessableContent)
      #expect(response.field == "episodes[1].season", "\(response.detail)")
      // A field with no range of its own is told the integers' range.
      let huge = #"{"episodes": [{"season": 99999999999999999999, "number": 1, "title": "a", "airDay": "2026-01-01"}]}"#
      let refused = try await client.send(.put, "/api/v1/shows/\(id)/episodes", json: huge, headers: token)
      #expect(refused.status == .unprocessableContent)
      #expect(refused.field == "episodes[0].season", "\(refused.detail)")
      #expect(refused.detail.contains("from -9223372036854775808 to 9223372036854775807"), "\(refused.detail)")
    }
  }

  @Test func brokenJSONIsStillA400() async throws {
    try await TestServer().test { client in
      let token = try await client.bearer(try await client.setUpOwner())
      let response = try await client.send(.patch, "/api/v1/settings", json: #"{"daySwitchHour": "#, headers: token)
      #expect(response.status == .badRequest)
    }
  }

  /// A field that cannot be unset may not be `null`; one that can (a note) may.
  @Test func nullIsRefusedForAFieldThatCannotBeUnset() async throws {
    try await TestServer().test { client in
      let token = try await client.bearer(try await client.setUpOwner())
      let id = try #require(try await client.addHabit("Read", headers: token)["id"] as? String)
      let refused = try await client.send(
        .post, "/api/v1/habits/\(id)/entries",
        json: #"{"days": null, "from": "2026-03-01", "to": "2026-03-02", "status": "done"}"#, headers: token)
      #expect(refused.status == .unprocessableContent)
      #expect(refused.field == "days")
      #expect(refused.detail.contains("cannot be null"))
      #expect(try await client.send(.get, "/api/v1/habits/\(id)/entries", headers: token).array.isEmpty)

      let taken = try await client.send(
        .post, "/api/v1/habits/\(id)/entries",
        json: #"{"from": "2026-03-01", "to": "2026-03-02", "status": "done", "note": null}"#, headers: token)
      #expect(taken.status == .ok, "\(taken.detail)")
      let named = try await client.send(.patch, "/api/v1/habits/\(id)", json: #"{"name": null}"#, headers: token)
      #expect(named.status == .unprocessableContent)
      #expect(named.field == "name")
    }
  }

  /// The document's maxLength counts code points of the text as sent; so does the API, even
  /// where the habit would keep fewer characters (trimmed, combined). Found by schemathesis.
  @Test func textLengthsAreCountedAsTheDocumentCountsThem() async throws {
    try await TestServer().test { client in
      let token = try await client.bearer(try await client.setUpOwner())
      let decomposed = String(repeating: "e\u{301}", count: 100)
      for name in ["\t" + String(repeating: "a", count: 100), decomposed] {
        let refused = try await client.send(.post, "/api/v1/habits", json: ["name": name], headers: token)
        #expect(refused.status == .unprocessableContent)
        #expect(refused.field == "name")
        #expect(refused.detail.contains("at most 100 characters"), "\(refused.detail)")
      }
      #expect(try await client.send(.get, "/api/v1/habits", headers: token).array.isEmpty, "nothing was made")
      let fits = try await client.send(.post, "/api/v1/habits", json: ["name": String(repeating: "a", count: 100)], headers: token)
      #expect(fits.status == .created)

      // Five characters in ten bytes are not eight characters, whatever their bytes.
      let short = try await client.send(
        .post, "/api/v1/users", json: ["name": "bob", "password": "\u{BC}\u{E6}0x\u{2D705}"], headers: token)
      #expect(short.status == .unprocessableContent)
      #expect(short.field == "password")
      let long = try await client.send(
        .post, "/api/v1/users", json: ["name": "bob", "password": String(repeating: "\u{E9}", count: 40)], headers: token)
      #expect(long.status == .unprocessableContent && long.detail.contains("72 bytes"), "\(long.detail)")
    }
  }
}
