/// A rejected input: which field was wrong and the rule it broke, in words a person reads.
/// `kind` and `values` say the same for a client that speaks another language: they are the
/// same in every release, and the web app's catalogs have a sentence per kind (`problem.<kind>`)
/// into which the values go.
public struct ValidationError: Error, Equatable, Sendable, CustomStringConvertible {
  public let field: String
  public let rule: String
  public let kind: Kind
  public let values: [String: String]

  public init(field: String, rule: String, kind: Kind = .other, values: [String: String] = [:]) {
    self.field = field
    self.rule = rule
    self.kind = kind
    self.values = values
  }

  public var description: String { "\(field) \(rule)" }

  /// `field` holds `length` characters, more than the `max` it may.
  public static func tooLong(_ field: String, max: Int, length: Int) -> ValidationError {
    ValidationError(
      field: field, rule: "must be at most \(max) characters (this one has \(length))", kind: .tooLong,
      values: ["max": "\(max)", "length": "\(length)"])
  }

  /// The rules a person meets on a form, each with the values its sentence names; `other`
  /// for the rest, which only a program that sends wrong data meets.
  public enum Kind: String, Sendable, CaseIterable {
    case other
    /// Nothing but spaces.
    case empty
    /// `max`, `length`: characters.
    case tooLong
    /// `value`: not a number at all.
    case notANumber
    /// `max`: decimal places.
    case tooPrecise
    case negative
    /// `max`.
    case tooLarge
    case notPositive
    /// `value`.
    case notATime
    /// `value`.
    case notADate
    /// The end of a range before its start.
    case endsBeforeStart
    /// `day`: a day after today where only past days may be.
    case inFuture
    /// `day`: before the first day Tally keeps.
    case tooEarly
    /// `name`: another record has it.
    case taken
    /// `value`: not an http(s) address.
    case notAnAddress
    /// An amount on a yes/no habit's day.
    case amountNotMeasured
    /// A measurable habit's day marked done without an amount.
    case amountMissing
    /// An amount on a day that is not done.
    case amountNotDone
    /// `value`: not an emoji or a symbol name.
    case notAnIcon
    /// `min`, `max`, `value`: a whole number out of its range.
    case outOfRange
  }
}
