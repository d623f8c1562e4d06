import Foundation
import Hummingbird
import TallyCore

/// Query parameters, read strictly: a value that is present but malformed is a 400 naming the
/// parameter, never silently the default.
extension Parameters {
  /// `true` or `false`; `nil` when absent.
  package func bool(_ name: String) throws -> Bool? {
    guard let text = get(name) else { return nil }
    switch text {
    case "true": return true
    case "false": return false
    default:
      throw Problem(.badRequest, "The query parameter '\(name)' must be true or false, not '\(text)'.", field: name)
    }
  }

  /// A whole number in `range`; `nil` when absent.
  package func int(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
    guard let text = get(name) else { return nil }
    guard let value = Int(text), range.contains(value) else {
      throw Problem(
        .badRequest,
        "The query parameter '\(name)' must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'.",
        field: name)
    }
    return value
  }

  /// A day `YYYY-MM-DD`; `nil` when absent.
  package func day(_ name: String) throws -> Day? {
    guard get(name) != nil else { return nil }
    return try requireDay(name)
  }

  /// A comma-separated list of words from `known`; empty when absent.
  package func words(_ name: String, known: Set<String>) throws -> Set<String> {
    guard let text = get(name) else { return [] }
    let words = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    if let unknown = words.first(where: { !known.contains($0) }) {
      throw Problem(
        .badRequest,
        "The query parameter '\(name)' takes \(known.sorted().map { "'\($0)'" }.joined(separator: " or ")), separated by commas, not '\(unknown)'.",
        field: name)
    }
    return Set(words)
  }
}
