import Foundation
import TallyCore

/// A person whose habits, journal and shows a store keeps apart from everyone else's.
public struct User: Identifiable, Hashable, Codable, Sendable {
  public var id: UUID
  /// What `tally --user NAME` and the sign-in form ask for: unique, compared exactly.
  public var name: String
  public var settings: UserSettings

  public static let nameLengths = 1...64

  /// Trims the name and checks it and the settings.
  public init(id: UUID, name: String, settings: UserSettings) throws(ValidationError) {
    let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
    guard User.nameLengths.contains(trimmed.count) else {
      throw ValidationError(
        field: "user name",
        rule: "must be 1 to 64 characters after trimming spaces (this one has \(trimmed.count))")
    }
    try NulFreeText.check(trimmed, field: "user name")
    self.id = id
    self.name = trimmed
    self.settings = try settings.validated()
  }
}

extension User {
  /// `user` as every store takes a new one: its name trimmed and its name and settings checked,
  /// a broken rule thrown as ``StoreError/invalid(_:)``.
  public static func checked(_ user: User) throws(StoreError) -> User {
    try checked(id: user.id, name: user.name, settings: user.settings)
  }

  public static func checked(id: UUID, name: String, settings: UserSettings) throws(StoreError) -> User {
    try StoreError.validating { () throws(ValidationError) in try User(id: id, name: name, settings: settings) }
  }
}
