/// A rejected input: which field was wrong and the rule it broke, in words a person reads.
public struct ValidationError: Error, Equatable, Sendable, CustomStringConvertible {
  public let field: String
  public let rule: String

  public init(field: String, rule: String) {
    self.field = field
    self.rule = rule
  }

  public var description: String { "\(field) \(rule)" }
}
