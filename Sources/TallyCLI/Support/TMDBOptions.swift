import ArgumentParser
import Foundation
import TallyCore
import TallyTMDB

/// `--tmdb-api-key` and `--tmdb-base-url`, shared by every command that asks TMDB.
struct TMDBOptions: ParsableArguments {
  @Option(help: ArgumentHelp("A TMDB API key or read access token ($TALLY_TMDB_API_KEY).", valueName: "key"))
  var tmdbApiKey: String?

  @Option(
    help: ArgumentHelp(
      "A TMDB-compatible API ($TALLY_TMDB_BASE_URL; default \(TMDBConfiguration.publicBaseURL)).",
      valueName: "url"))
  var tmdbBaseUrl: String?

  /// Flags first, then the environment; `nil` when no key is given anywhere.
  func configuration(_ environment: [String: String]) throws -> TMDBConfiguration? {
    guard let key = (tmdbApiKey ?? environment["TALLY_TMDB_API_KEY"])?.trimmingCharacters(in: .whitespaces),
      !key.isEmpty
    else { return nil }
    let base = tmdbBaseUrl ?? environment["TALLY_TMDB_BASE_URL"] ?? TMDBConfiguration.publicBaseURL
    guard let url = URL(string: base), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
      throw CommandFailure("The TMDB base URL must be an http or https address, not '\(base)'.", exitCode: CommandFailure.usage)
    }
    return TMDBConfiguration(apiKey: key, baseURL: base)
  }

  func source(_ context: CommandContext) throws -> any ShowSource {
    if let source = context.showSource { return source }
    guard let configuration = try configuration(context.environment) else {
      throw CommandFailure(
        "TMDB needs an API key: give --tmdb-api-key KEY or set TALLY_TMDB_API_KEY (free at themoviedb.org).",
        exitCode: CommandFailure.usage)
    }
    return TMDBClient(configuration: configuration)
  }
}

/// `US:8:Netflix`, the way a provider is written on the command line.
enum ProviderArgument {
  static func parse(_ texts: [String]) throws -> [String: [Provider]] {
    var byCountry: [String: [Provider]] = [:]
    for text in texts {
      let parts = text.split(separator: ":", maxSplits: 2).map(String.init)
      guard parts.count == 3, let id = Int(parts[1]) else {
        throw CommandFailure(
          "A --provider is COUNTRY:ID:NAME like US:8:Netflix (ids are TMDB's), not '\(text)'.",
          exitCode: CommandFailure.usage)
      }
      let country = try CountryCode.normalized(parts[0], field: "provider country")
      let provider = try Provider(id: id, name: parts[2])
      if !(byCountry[country] ?? []).contains(where: { $0.id == id }) {
        byCountry[country, default: []].append(provider)
      }
    }
    return byCountry
  }
}
