import Foundation
import Testing

/// docs/deploy.md's table of `tally serve` options is what self-hosters configure from: it must
/// name every option `tally serve --help` prints, no other, and the same environment variables.
@Suite struct DeployDocumentationTests {
  static let document = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("docs/deploy.md")

  /// Each option of the help, with the `TALLY_…` variables its text names.
  static func helpOptions(_ help: String) -> [String: Set<String>] {
    var options: [String: Set<String>] = [:]
    var current: String?
    let section = help.components(separatedBy: "OPTIONS:").last ?? ""
    for line in section.split(separator: "\n") {
      // An option's first line starts with it, two spaces in; wrapped text is indented further.
      if let match = line.prefixMatch(of: /\ \ (?:-[a-zA-Z], )?(--[a-z-]+)/) {
        current = String(match.1)
        options[current!, default: []] = []
      }
      if let current {
        options[current, default: []].formUnion(line.matches(of: /TALLY_[A-Z_]+/).map { String($0.output) })
      }
    }
    options["--help"] = nil
    options["--version"] = nil
    return options
  }

  /// Each row of the option table: the option its first cell names, and its variables.
  static func tableOptions(_ markdown: String) -> [String: Set<String>] {
    let table = markdown.components(separatedBy: "## Every option of `tally serve`").last ?? ""
    var options: [String: Set<String>] = [:]
    for line in table.split(separator: "\n") where line.hasPrefix("| `--") {
      let cells = line.split(separator: "|", omittingEmptySubsequences: false)
      guard cells.count > 3, let option = cells[1].firstMatch(of: /--[a-z-]+/) else { continue }
      options[String(option.output)] = Set(cells[2].matches(of: /TALLY_[A-Z_]+/).map { String($0.output) })
    }
    return options
  }

  @Test func everyServeOptionIsInTheTableWithItsVariable() async throws {
    let help = await Harness().run("serve", "--help")
    #expect(help.status == 0)
    let documented = Self.tableOptions(try String(contentsOf: Self.document, encoding: .utf8))
    let offered = Self.helpOptions(help.stdout)
    #expect(offered.count > 15, "the help was not read: \(help.stdout)")
    #expect(Set(offered.keys).subtracting(documented.keys).sorted() == [], "options docs/deploy.md lacks")
    #expect(Set(documented.keys).subtracting(offered.keys).sorted() == [], "options tally serve does not have")
    for (option, variables) in offered.sorted(by: { $0.key < $1.key }) where documented[option] != nil {
      #expect(documented[option] == variables, "\(option): the help names \(variables.sorted())")
    }
  }
}
