import Synchronization

@testable import TallyLocalization

/// Collects what a ``MissingTranslations`` log reports, for tests that count warnings.
final class Warnings: Sendable {
  private let collected = Mutex<[String]>([])
  var lines: [String] { collected.withLock { $0 } }

  var log: MissingTranslations {
    MissingTranslations { line in self.collected.withLock { $0.append(line) } }
  }
}
