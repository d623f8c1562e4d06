import Foundation
import Hummingbird
import TallyCore
import TallyHTTP
import TallyLocalization
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

  /// The locale and first weekday follow the request's `Accept-Language`, as for the web's forms.
  func settings(for request: Request) throws(ValidationError) -> UserSettings {
    try UserSettings.newAccount(
      timeZone: timeZone ?? "UTC", locale: LanguageNegotiation.locale(forAcceptLanguage: request.headers[.acceptLanguage])
    ).validated()
  }
}

/// Whether the server waits for its owner, and whether anyone may sign up.
struct SetUpStatusJSON: Encodable, Sendable {
  var needsSetUp: Bool
  var signUpOpen: Bool
}
