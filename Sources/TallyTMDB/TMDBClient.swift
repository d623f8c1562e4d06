import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization
import TallyCore

/// How to reach a TMDB-compatible API.
public struct TMDBConfiguration: Sendable {
  public static let publicBaseURL = "https://api.themoviedb.org/3"
  public static let publicImageBaseURL = "https://image.tmdb.org/t/p/w92"

  /// A v3 API key (sent as `api_key`) or a v4 read access token (a JWT, sent as a bearer token).
  public var apiKey: String
  public var baseURL: String
  /// Logo paths are relative to this.
  public var imageBaseURL: String
  /// For one attempt, answer included.
  public var timeout: Duration
  /// Every request is a GET, so each may be tried again: after a time-out, a lost
  /// connection, a 429 or a 5xx.
  public var attempts: Int
  /// The wait before the second attempt, doubled for each one after, when the server names none.
  public var backoff: Duration
  /// The longest wait a 429's Retry-After is obeyed for; longer ones are cut to this.
  public var longestWait: Duration
  /// How long an answer is reused without asking again.
  public var cacheLifetime: Duration

  public init(
    apiKey: String, baseURL: String = TMDBConfiguration.publicBaseURL,
    imageBaseURL: String = TMDBConfiguration.publicImageBaseURL, timeout: Duration = .seconds(10),
    attempts: Int = 3, backoff: Duration = .milliseconds(500), longestWait: Duration = .seconds(30),
    cacheLifetime: Duration = .seconds(6 * 3600)
  ) {
    self.apiKey = apiKey
    self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
    self.imageBaseURL = imageBaseURL
    self.timeout = timeout
    self.attempts = max(1, attempts)
    self.backoff = backoff
    self.longestWait = longestWait
    self.cacheLifetime = cacheLifetime
  }
}

/// A ``ShowSource`` over a TMDB-compatible HTTP API, with retries, time-outs, rate-limit
/// back-off and an in-memory cache of answers.
public final class TMDBClient: ShowSource {
  public let configuration: TMDBConfiguration
  private let http: HTTPClient
  private let cache = Mutex<[String: (body: Data, expires: ContinuousClock.Instant)]>([:])
  private static let largestBody = 8 << 20

  public init(configuration: TMDBConfiguration, http: HTTPClient = .shared) {
    self.configuration = configuration
    self.http = http
  }

  public func searchShows(_ query: String) async throws -> [ShowSearchResult] {
    let page: TMDBSearchPage = try await get("search/tv", query: ["query": query, "include_adult": "false"])
    return page.results.map {
      ShowSearchResult(
        tmdbId: $0.id, name: $0.name, firstAirDay: $0.first_air_date.flatMap { Day($0) },
        overview: $0.overview ?? "")
    }
  }

  public func show(_ tmdbID: Int) async throws -> ShowDetails {
    let show: TMDBShow = try await get("tv/\(tmdbID)", what: "show with id \(tmdbID)")
    return ShowDetails(
      tmdbID: show.id, name: show.name,
      seasonNumbers: (show.seasons ?? []).filter { ($0.episode_count ?? 1) > 0 }.map(\.season_number).sorted())
  }

  public func episodes(of tmdbID: Int, season: Int) async throws -> [SourceEpisode] {
    let body: TMDBSeason = try await get(
      "tv/\(tmdbID)/season/\(season)", what: "season \(season) of the show with id \(tmdbID)")
    return (body.episodes ?? []).map {
      let title = ($0.name ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
      return SourceEpisode(
        season: $0.season_number ?? season, number: $0.episode_number,
        title: title.isEmpty ? "Episode \($0.episode_number)" : title,
        // TMDB sends null or "" while no date is announced.
        airDay: $0.air_date.flatMap { Day($0) })
    }
  }

  public func providers(of tmdbID: Int) async throws -> [String: [Provider]] {
    let body: TMDBWatchProviders = try await get(
      "tv/\(tmdbID)/watch/providers", what: "watch providers for the show with id \(tmdbID)")
    var byCountry: [String: [Provider]] = [:]
    for (country, entry) in body.results {
      guard let code = try? CountryCode.normalized(country) else { continue }
      let entries = (entry.flatrate ?? []).sorted {
        ($0.display_priority ?? Int.max, $0.provider_id) < ($1.display_priority ?? Int.max, $1.provider_id)
      }
      var list: [Provider] = []
      for item in entries where !list.contains(where: { $0.id == item.provider_id }) {
        guard
          let provider = try? Provider(
            id: item.provider_id, name: item.provider_name,
            logoURL: item.logo_path.flatMap { URL(string: configuration.imageBaseURL + $0) })
        else { continue }
        list.append(provider)
      }
      if !list.isEmpty { byCountry[code] = list }
    }
    return byCountry
  }

  // MARK: Requests

  /// GETs `path` and decodes it, from the cache when a fresh answer is there.
  private func get<Body: Decodable>(
    _ path: String, query: [String: String] = [:], what: String? = nil
  ) async throws -> Body {
    var components = URLComponents()
    components.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
    let cacheKey = path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
    if let kept = cache.withLock({ $0[cacheKey] }), kept.expires > .now {
      return try Self.decode(Body.self, from: kept.body, path: path)
    }
    let data = try await fetch(path, query: components.queryItems ?? [], what: what ?? path)
    let decoded = try Self.decode(Body.self, from: data, path: path)
    // Kept only once it decodes, so a malformed answer is asked for again next time; a cached
    // answer is not stored again, so it expires on time however often it is used.
    let expires = ContinuousClock.now.advanced(by: configuration.cacheLifetime)
    cache.withLock { cache in
      if cache.count >= 2048 { cache.removeAll(keepingCapacity: true) }
      cache[cacheKey] = (data, expires)
    }
    return decoded
  }

  private static func decode<Body: Decodable>(_ type: Body.Type, from data: Data, path: String) throws -> Body {
    do {
      return try JSONDecoder().decode(Body.self, from: data)
    } catch {
      throw TMDBError.malformed("GET /\(path): \(Self.describe(error))")
    }
  }

  private func fetch(_ path: String, query: [URLQueryItem], what: String) async throws -> Data {
    var components = URLComponents(string: configuration.baseURL + "/" + path)
    var items = query
    let isBearer = configuration.apiKey.contains(".")
    if !isBearer { items.append(URLQueryItem(name: "api_key", value: configuration.apiKey)) }
    components?.queryItems = items.isEmpty ? nil : items
    guard let url = components?.url?.absoluteString else {
      throw TMDBError.unreachable("'\(configuration.baseURL)' is not a URL")
    }
    var request = HTTPClientRequest(url: url)
    request.method = .GET
    request.headers.add(name: "Accept", value: "application/json")
    if isBearer { request.headers.add(name: "Authorization", value: "Bearer \(configuration.apiKey)") }

    var wait = configuration.backoff
    var lastFailure = TMDBError.unreachable("no attempt was made")
    for attempt in 1...configuration.attempts {
      if attempt > 1 {
        try await Task.sleep(for: min(wait, configuration.longestWait))
        wait *= 2
      }
      let response: HTTPClientResponse
      let body: ByteBuffer
      do {
        response = try await http.execute(request, timeout: TimeAmount(configuration.timeout))
        body = try await response.body.collect(upTo: Self.largestBody)
      } catch let error as HTTPClientError where Self.isTimeout(error) {
        lastFailure = .timedOut("GET /\(path)")
        continue
      } catch let error as HTTPClientError {
        lastFailure = .unreachable(String(describing: error))
        continue
      } catch is CancellationError {
        throw CancellationError()
      } catch {
        lastFailure = .unreachable(String(describing: error))
        continue
      }
      let data = Data(body.readableBytesView)
      switch response.status.code {
      case 200..<300:
        return data
      case 401:
        throw TMDBError.unauthorized(Self.message(in: data) ?? "401 Unauthorized")
      case 404:
        throw TMDBError.notFound(what)
      case 429:
        lastFailure = .rateLimited
        if let seconds = response.headers.first(name: "Retry-After").flatMap(Double.init), seconds >= 0 {
          wait = .milliseconds(Int(seconds * 1000))
        }
      case 500..<600:
        lastFailure = .status(Int(response.status.code), "GET /\(path)")
      default:
        throw TMDBError.status(Int(response.status.code), "GET /\(path)")
      }
    }
    throw lastFailure
  }

  private static func isTimeout(_ error: HTTPClientError) -> Bool {
    [HTTPClientError.deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout].contains(error)
  }

  private static func message(in data: Data) -> String? {
    (try? JSONDecoder().decode(TMDBStatus.self, from: data))?.status_message
  }

  private static func describe(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return String(describing: error) }
    switch error {
    case .keyNotFound(let key, let context):
      return "'\(path(context.codingPath + [key]))' is missing"
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      return "'\(path(context.codingPath))' \(context.debugDescription.lowercased())"
    case .dataCorrupted(let context):
      return context.codingPath.isEmpty ? "not JSON" : "'\(path(context.codingPath))' is not readable"
    @unknown default:
      return String(describing: error)
    }
  }

  private static func path(_ keys: [any CodingKey]) -> String {
    keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
  }
}
