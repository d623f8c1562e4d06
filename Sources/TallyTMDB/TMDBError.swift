/// Why a TMDB request failed, in words a person can act on.
public enum TMDBError: Error, Equatable, Sendable, CustomStringConvertible {
  /// 401: the key is wrong or missing.
  case unauthorized(String)
  /// 404: no such show or season.
  case notFound(String)
  /// 429 on every attempt.
  case rateLimited
  /// No answer within the time-out, on every attempt.
  case timedOut(String)
  /// The answer was not the JSON TMDB documents.
  case malformed(String)
  /// Any other status, after retries where a retry could help.
  case status(Int, String)
  /// The server could not be reached.
  case unreachable(String)

  public var description: String {
    switch self {
    case .unauthorized(let message):
      "TMDB refused the API key (\(message)); check --tmdb-api-key or TALLY_TMDB_API_KEY."
    case .notFound(let what):
      "TMDB has no \(what)."
    case .rateLimited:
      "TMDB is limiting requests (429) and kept doing so after waiting; try again in a minute."
    case .timedOut(let path):
      "TMDB did not answer \(path) in time, after retrying."
    case .malformed(let detail):
      "TMDB answered with something that is not its documented JSON: \(detail)."
    case .status(let code, let path):
      "TMDB answered \(path) with status \(code)."
    case .unreachable(let detail):
      "TMDB could not be reached: \(detail)."
    }
  }
}
