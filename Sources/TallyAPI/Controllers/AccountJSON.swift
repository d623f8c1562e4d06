import Foundation
import TallyCore
import TallyHTTP
import TallyStore

/// A signed-in person as the API shows them.
struct AccountJSON: Encodable, Sendable {
  /// Lower-case, like every id Tally prints.
  var id: String
  var name: String
  /// `owner`, `member`, or absent for a user who cannot sign in with a password.
  var role: AccountRole?
  var settings: UserSettings
}

/// Name and password: the body of set-up, sign-in, sign-up and "add user".
struct CredentialsBody: JSONBody {
  var name: String
  var password: String
  /// An IANA zone for a new account (a browser sends its own); UTC when absent.
  var timeZone: String?

  static let fields: Set<String> = ["name", "password", "timeZone"]
  static let textLimits = ["name": User.nameLengths.upperBound]

  func settings() throws(ValidationError) -> UserSettings {
    try UserSettings(timeZone: timeZone ?? "UTC").validated()
  }
}

/// Whether the server waits for its owner, and whether anyone may sign up.
struct SetUpStatusJSON: Encodable, Sendable {
  var needsSetUp: Bool
  var signUpOpen: Bool
}
