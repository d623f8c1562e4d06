import Foundation
import Hummingbird
import TallyCore

// Path and query values as the engine's types. Text that does not parse is the client's
// mistake in the address, so it is a 400 naming the parameter; a value that parses but breaks
// a rule of the data (a day in the future) is the handler's 422.
extension Parameters {
  /// An optional finite number, 0 or more; a 400 otherwise.
  package func points(_ name: String) throws -> Double? {
    guard let text = get(name) else { return nil }
    guard let value = Double(text), value.isFinite, value >= 0 else {
      throw Problem(.badRequest, "The \(name) must be a number of points, 0 or more, not '\(text)'.", field: name)
    }
    return value
  }

  /// A month `YYYY-MM`; a 400 otherwise.
  package func requireMonth(_ name: String) throws -> Month {
    guard let text = get(name), let month = Month(text) else {
      throw Problem(.badRequest, "The \(name) '\(get(name) ?? "")' is not a month like 2026-03.", field: name)
    }
    return month
  }

  /// An optional two-letter country code, upper-cased; a 400 when present but not one.
  package func country(_ name: String) throws -> String? {
    guard let text = get(name) else { return nil }
    do {
      return try CountryCode.normalized(text)
    } catch {
      throw Problem(.badRequest, "The \(name) must be a two-letter ISO 3166 code like US or DE, not '\(text)'.", field: name)
    }
  }
}
