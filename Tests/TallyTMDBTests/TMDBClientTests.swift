import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import TallyCore
import TallyStore
import TallyTMDB
import Testing

/// A local server answering in TMDB's documented shapes (developer.themoviedb.org), with a
/// show for each way TMDB can answer.
final class TMDBStub: Sendable {
  /// Requests seen, by path.
  let hits = Mutex<[String: Int]>([:])
  /// 429s still to send before answering normally.
  let rateLimitsLeft = Mutex(2)

  static let key = "good-key"

  func hitCount(_ path: String) -> Int { hits.withLock { $0[path] ?? 0 } }

  func application() -> some ApplicationProtocol {
    let router = Router()
    router.add(middleware:
      StubMiddleware { [self] request in
        let path = request.uri.path
        hits.withLock { $0[path, default: 0] += 1 }
        let key = request.uri.queryParameters.get("api_key")
        let bearer = request.headers[.authorization]
        guard key == Self.key || bearer == "Bearer eyJ.good.token" else {
          return Self.json(
            #"{"status_code":7,"status_message":"Invalid API key: You must be granted a valid key.","success":false}"#,
            status: .unauthorized)
        }
        return nil
      })
    router.get("/3/search/tv") { request, _ in
      let query = request.uri.queryParameters.get("query") ?? ""
      if query == "nothing" { return Self.json(#"{"page":1,"results":[],"total_pages":1,"total_results":0}"#) }
      return Self.json(
        #"""
        {"page":1,"results":[
          {"adult":false,"backdrop_path":null,"genre_ids":[18],"id":1399,"origin_country":["US"],
           "original_language":"en","original_name":"Game of Thrones","overview":"Seven noble families fight.",
           "popularity":369.6,"poster_path":"/1XS1oqL89opfnbLl8WnZY1O1uJx.jpg","first_air_date":"2011-04-17",
           "name":"Game of Thrones","vote_average":8.4,"vote_count":21000},
          {"adult":false,"id":2,"name":"Untitled Pilot","first_air_date":"","overview":null}
        ],"total_pages":1,"total_results":2}
        """#)
    }
    router.get("/3/tv/{id}") { [self] _, context in
      let id = context.parameters.get("id") ?? ""
      switch id {
      case "1399":
        return Self.json(
          #"""
          {"id":1399,"name":"Game of Thrones","first_air_date":"2011-04-17","number_of_seasons":3,
           "seasons":[
             {"air_date":null,"episode_count":0,"id":1,"name":"Specials","season_number":0},
             {"air_date":"2011-04-17","episode_count":2,"id":3624,"name":"Season 1","season_number":1},
             {"air_date":null,"episode_count":0,"id":3625,"name":"Season 2","season_number":2},
             {"air_date":"2026-03-01","episode_count":3,"id":3626,"name":"Season 3","season_number":3}
           ]}
          """#)
      case "429":
        let limited = rateLimitsLeft.withLock { left in
          defer { left -= 1 }
          return left > 0
        }
        if limited {
          var response = Self.json(
            #"{"status_code":25,"status_message":"Your request count (41) is over the allowed limit of 40.","success":false}"#,
            status: .tooManyRequests)
          response.headers[.retryAfter] = "0"
          return response
        }
        return Self.json(#"{"id":429,"name":"Limited","seasons":[]}"#)
      case "500":
        return Self.json(#"{"status_code":11,"status_message":"Internal error","success":false}"#, status: .internalServerError)
      case "777":
        try await Task.sleep(for: .seconds(3))
        return Self.json(#"{"id":777,"name":"Slow","seasons":[]}"#)
      case "888":
        return Self.json(#"{"id":888,"name":"Broken","seasons":[{"season_number":"one"}]}"#)
      case "889":
        return Self.json("<html>Bad gateway</html>")
      default:
        return Self.json(
          #"{"success":false,"status_code":34,"status_message":"The resource you requested could not be found."}"#,
          status: .notFound)
      }
    }
    router.get("/3/tv/{id}/season/{season}") { _, context in
      switch (context.parameters.get("id") ?? "", context.parameters.get("season") ?? "") {
      case ("1399", "1"):
        return Self.json(
          #"""
          {"_id":"5256c89f19c2956ff6046d47","air_date":"2011-04-17","id":3624,"name":"Season 1","season_number":1,
           "episodes":[
             {"air_date":"2011-04-17","episode_number":1,"id":63056,"name":"Winter Is Coming","season_number":1,"runtime":62},
             {"air_date":"2011-04-24","episode_number":2,"id":63057,"name":"The Kingsroad","season_number":1,"runtime":56}
           ]}
          """#)
      case ("1399", "2"):
        return Self.json(#"{"air_date":null,"episodes":[],"id":3625,"name":"Season 2","season_number":2}"#)
      case ("1399", "3"):
        return Self.json(
          #"""
          {"air_date":"2026-03-01","id":3626,"name":"Season 3","season_number":3,"episodes":[
             {"air_date":"2026-03-01","episode_number":1,"name":"","season_number":3},
             {"air_date":null,"episode_number":2,"name":"TBA","season_number":3},
             {"air_date":"","episode_number":3,"name":"TBA","season_number":3}
          ]}
          """#)
      default:
        return Self.json(
          #"{"success":false,"status_code":34,"status_message":"The resource you requested could not be found."}"#,
          status: .notFound)
      }
    }
    router.get("/3/tv/{id}/watch/providers") { _, context in
      guard context.parameters.get("id") == "1399" else {
        return Self.json(
          #"{"success":false,"status_code":34,"status_message":"The resource you requested could not be found."}"#,
          status: .notFound)
      }
      return Self.json(
        #"""
        {"id":1399,"results":{
          "US":{"link":"https://www.themoviedb.org/tv/1399/watch?locale=US",
                "flatrate":[{"logo_path":"/max.jpg","provider_id":1899,"provider_name":"Max","display_priority":2},
                            {"logo_path":"/hulu.jpg","provider_id":15,"provider_name":"Hulu","display_priority":5}],
                "buy":[{"logo_path":"/apple.jpg","provider_id":2,"provider_name":"Apple TV","display_priority":4}]},
          "DE":{"link":"x","flatrate":[{"logo_path":"/sky.jpg","provider_id":30,"provider_name":"WOW","display_priority":1}]},
          "BR":{"link":"x","rent":[{"logo_path":"/g.jpg","provider_id":3,"provider_name":"Google Play Movies","display_priority":1}]}
        }}
        """#)
    }
    return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
  }

  static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
    Response(
      status: status, headers: [.contentType: "application/json;charset=utf-8"],
      body: .init(byteBuffer: ByteBuffer(string: text)))
  }

  /// Runs `body` with a client of this stub. The time-out is long so that a loaded machine
  /// never turns a counted request into a retried one; only the time-out test shortens it.
  func withClient(
    key: String = TMDBStub.key, timeout: Duration = .seconds(20),
    _ body: @Sendable @escaping (TMDBClient) async throws -> Void
  ) async throws {
    try await application().test(.live) { client in
      let port = try #require(client.port)
      try await body(
        TMDBClient(
          configuration: TMDBConfiguration(
            apiKey: key, baseURL: "http://127.0.0.1:\(port)/3", imageBaseURL: "https://img.test/w92",
            timeout: timeout, attempts: 3, backoff: .milliseconds(10))))
    }
  }
}

/// Answers for every route before it is run: the stub's authentication.
struct StubMiddleware<Context: RequestContext>: RouterMiddleware {
  let check: @Sendable (Request) -> Response?

  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
    -> Response
  {
    if let response = check(request) { return response }
    return try await next(request, context)
  }
}

@Suite struct TMDBClientTests {
  @Test func searchFindsShowsWithTheirFirstAirDay() async throws {
    let stub = TMDBStub()
    try await stub.withClient { client in
      let results = try await client.searchShows("thrones")
      #expect(results.map(\.tmdbId) == [1399, 2])
      #expect(results[0].name == "Game of Thrones")
      #expect(results[0].firstAirDay == Day("2011-04-17"))
      // An empty date and a null overview are TMDB's "not known", not errors.
      #expect(results[1].firstAirDay == nil)
      #expect(results[1].overview == "")
      #expect(try await client.searchShows("nothing").isEmpty)
    }
  }

  @Test func seasonsEpisodesAndProvidersComeInTheirOwnShapes() async throws {
    let stub = TMDBStub()
    try await stub.withClient { client in
      let show = try await client.show(1399)
      // Seasons TMDB counts as empty are not asked for.
      #expect(show.seasonNumbers == [1, 3])
      let first = try await client.episodes(of: 1399, season: 1)
      #expect(first.map(\.title) == ["Winter Is Coming", "The Kingsroad"])
      #expect(first.map(\.airDay) == [Day("2011-04-17"), Day("2011-04-24")])
      #expect(try await client.episodes(of: 1399, season: 2).isEmpty)
      let third = try await client.episodes(of: 1399, season: 3)
      #expect(third.map(\.airDay) == [Day("2026-03-01"), nil, nil])
      #expect(third[0].title == "Episode 1")

      let providers = try await client.providers(of: 1399)
      // Subscription services only, in TMDB's display order; buy and rent are not streaming.
      #expect(providers["US"]?.map(\.name) == ["Max", "Hulu"])
      #expect(providers["US"]?.first?.logoURL == URL(string: "https://img.test/w92/max.jpg"))
      #expect(providers["DE"]?.map(\.id) == [30])
      #expect(providers["BR"] == nil)
    }
  }

  @Test func aBearerTokenIsSentAsAnAuthorizationHeader() async throws {
    let stub = TMDBStub()
    try await stub.withClient(key: "eyJ.good.token") { client in
      let show = try await client.show(1399)
      #expect(show.name == "Game of Thrones")
    }
  }

  @Test func aWrongKeyIsA401ThatSaysSoAndIsNotRetried() async throws {
    let stub = TMDBStub()
    try await stub.withClient(key: "wrong") { client in
      let error = await #expect(throws: TMDBError.self) { try await client.searchShows("x") }
      #expect(error == .unauthorized("Invalid API key: You must be granted a valid key."))
      #expect(error?.description.contains("TALLY_TMDB_API_KEY") == true)
    }
    #expect(stub.hitCount("/3/search/tv") == 1)
  }

  @Test func anUnknownShowIsA404NamingIt() async throws {
    let stub = TMDBStub()
    try await stub.withClient { client in
      await #expect(throws: TMDBError.notFound("show with id 42")) { try await client.show(42) }
      await #expect(throws: TMDBError.notFound("season 9 of the show with id 1399")) {
        try await client.episodes(of: 1399, season: 9)
      }
    }
    #expect(stub.hitCount("/3/tv/42") == 1)
  }

  @Test func a429IsWaitedOutAndRetried() async throws {
    let stub = TMDBStub()
    try await stub.withClient { client in
      let show = try await client.show(429)
      #expect(show.name == "Limited")
    }
    #expect(stub.hitCount("/3/tv/429") == 3)
  }

  @Test func a429OnEveryAttemptGivesUpSayingSo() async throws {
    let stub = TMDBStub()
    stub.rateLimitsLeft.withLock { $0 = 10 }
    try await stub.withClient { client in
      await #expect(throws: TMDBError.rateLimited) { try await client.show(429) }
    }
    #expect(stub.hitCount("/3/tv/429") == 3)
  }

  @Test func serverErrorsAreRetriedThenReported() async throws {
    let stub = TMDBStub()
    try await stub.withClient { client in
      await #expect(throws: TMDBError.status(500, "GET /tv/500")) { try await client.show(500) }
    }
    #expect(stub.hitCount("/3/tv/500") == 3)
  }

  @Test func aSlowAnswerTimesOut() async throws {
    let stub = TMDBStub()
    try await stub.withClient(timeout: .milliseconds(200)) { client in
      await #expect(throws: TMDBError.timedOut("GET /tv/777")) { try await client.show(777) }
    }
  }

  @Test func malformedJSONNamesWhatIsWrong() async throws {
    let stub = TMDBStub()
    try await stub.withClient { client in
      let wrongType = await #expect(throws: TMDBError.self) { try await client.show(888) }
      #expect(wrongType?.description.contains("seasons.[0].season_number") == true)
      await #expect(throws: TMDBError.malformed("GET /tv/889: not JSON")) { try await client.show(889) }
    }
    // Malformed answers are not kept: asking again asks the server.
    #expect(stub.hitCount("/3/tv/888") == 1)
  }

  @Test func answersAreCachedSoRepeatsDoNotWaitOnTheNetwork() async throws {
    let stub = TMDBStub()
    try await stub.withClient { client in
      _ = try await client.show(1399)
      _ = try await client.show(1399)
      _ = try await client.searchShows("thrones")
      _ = try await client.searchShows("thrones")
      _ = try await client.searchShows("other")
    }
    #expect(stub.hitCount("/3/tv/1399") == 1)
    #expect(stub.hitCount("/3/search/tv") == 2)
  }

  @Test func anUnreachableServerIsReported() async throws {
    // Port 9 on loopback (discard) has no listener here; the connection is refused at once.
    let client = TMDBClient(
      configuration: TMDBConfiguration(
        apiKey: "k", baseURL: "http://127.0.0.1:9/3", timeout: .milliseconds(300), attempts: 2,
        backoff: .milliseconds(5)))
    let error = await #expect(throws: TMDBError.self) { try await client.show(1) }
    switch error {
    case .unreachable, .timedOut: break
    default: Issue.record("expected unreachable, got \(String(describing: error))")
    }
  }
}
