import Foundation
import Synchronization

/// Whole numbers as a locale writes them (`1.234` in German, `١٢` in Arabic), each formatted
/// once: a page names dozens of counts, and formatting one through ICU costs more than the
/// rest of its sentence. Numbers past ``cached`` are formatted every time.
public final class NumberNames: Sendable {
  public let locale: Locale
  private let known = Mutex<[Int: String]>([:])
  static let cached = 0..<100_000

  public init(locale: Locale) {
    self.locale = locale
  }

  public func name(_ number: Int) -> String {
    guard Self.cached.contains(number) else { return number.formatted(.number.locale(locale)) }
    if let name = known.withLock({ $0[number] }) { return name }
    let name = number.formatted(.number.locale(locale))
    known.withLock { $0[number] = name }
    return name
  }
}
