import HTTPTypes
import TallyTMDB

extension Problem {
  /// Runs a call to TMDB with its failures as problems, for the API and the pages alike: a show
  /// TMDB does not have is the client's 404; anything else is TMDB's or the server's key's
  /// trouble, a 502 that says which.
  public static func fromTMDB<T>(_ body: () async throws -> T) async throws -> T {
    do {
      return try await body()
    } catch let error as TMDBError {
      switch error {
      case .notFound: throw Problem(.notFound, error.description)
      default: throw Problem(.badGateway, error.description)
      }
    }
  }
}
