// The parts of TMDB's v3 responses Tally reads (developer.themoviedb.org/reference).
// Optional wherever TMDB leaves a field out or sends null.

struct TMDBSearchPage: Decodable {
  var results: [Result]

  struct Result: Decodable {
    var id: Int
    var name: String
    var first_air_date: String?
    var overview: String?
  }
}

struct TMDBShow: Decodable {
  var id: Int
  var name: String
  var seasons: [Season]?

  struct Season: Decodable {
    var season_number: Int
    var episode_count: Int?
  }
}

struct TMDBSeason: Decodable {
  var season_number: Int?
  var episodes: [Episode]?

  struct Episode: Decodable {
    var episode_number: Int
    var season_number: Int?
    var name: String?
    var air_date: String?
  }
}

struct TMDBWatchProviders: Decodable {
  var results: [String: Country]

  struct Country: Decodable {
    var flatrate: [Entry]?
  }

  struct Entry: Decodable {
    var provider_id: Int
    var provider_name: String
    var logo_path: String?
    var display_priority: Int?
  }
}

/// TMDB's error body: `{"status_code": 7, "status_message": "Invalid API key…", "success": false}`.
struct TMDBStatus: Decodable {
  var status_message: String?
}
