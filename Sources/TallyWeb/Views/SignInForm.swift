import Foundation
import TallyAccounts
import TallyCore
import TallyHTTP
import TallyLocalization
import TallyStore

/// The sign-in and set-up page's words and values, in the visitor's language
/// (``PageLanguages/visitor(_:)``), with links to every other language.
struct SignInForm: Sendable {
  let heading: String
  let lead: String
  let action: String
  let button: String
  let setUp: Bool
  let name: String
  let next: String
  let timeZone: String
  let error: String?
  /// The provider's button, "Sign in with NAME", when the server has one.
  let provider: String?
  let passwordForm: Bool
  let nameLabel: String
  let passwordLabel: String
  let passwordHelp: String
  let orWithPassword: String
  let languageLabel: String
  let languages: [PageLanguages.Link]

  init(
    setUp: Bool, speech: PageSpeech, name: String, next: String, timeZone: String, error: String?,
    provider: OIDCSettings?
  ) {
    let t = speech.translator
    let page = setUp ? "setUp" : "signIn"
    heading = t.text("\(page).heading")
    lead = t.text("\(page).lead")
    button = t.text("\(page).button")
    passwordHelp = t.text("\(page).passwordHelp")
    action = setUp ? "/setup" : "/signin"
    self.setUp = setUp
    self.name = name
    self.next = next
    self.timeZone = timeZone
    self.error = error
    self.provider = provider.map { t.text("signIn.withProvider", ["provider": $0.displayName]) }
    passwordForm = provider?.only != true
    nameLabel = t.text("signIn.name")
    passwordLabel = t.text("signIn.password")
    orWithPassword = t.text("signIn.orWithPassword")
    languageLabel = t.text("signIn.language")
    let back = setUp ? "/setup" : "/signin?next=" + PageLanguages.queryValue(next)
    languages = PageLanguages.links(current: speech, back: back)
  }

  /// A refused form's reason in the visitor's language: the refusals this form meets have
  /// words of their own; anything else keeps the server's sentence.
  static func reason(_ error: any Error, form name: String, password: String, speech: PageSpeech) -> String? {
    let t = speech.translator
    switch error {
    case AccountError.wrongNameOrPassword: return t.text("accountError.wrongNameOrPassword")
    case AccountError.throttled(let seconds): return t.plural("accountError.throttled", count: seconds)
    case AccountError.alreadySetUp: return t.text("accountError.alreadySetUp")
    case AccountError.passwordsOff: return t.text("accountError.providerOnly")
    case let rule as ValidationError where rule.field == "password":
      return password.unicodeScalars.count < PasswordRule.characters
        ? t.plural("accountError.passwordTooShort", count: password.unicodeScalars.count)
        : t.text("accountError.passwordTooLong", ["count": String(password.utf8.count)])
    case let rule as ValidationError where rule.field == "user name": return t.text("accountError.nameLength")
    case StoreError.invalid(let rule) where rule.field == "user name": return t.text("accountError.nameLength")
    case StoreError.conflict(let what) where what.hasPrefix("a user named"):
      return t.text("accountError.nameTaken", ["name": name.trimmingCharacters(in: .whitespacesAndNewlines)])
    default: return Problem.from(error)?.detail
    }
  }

}
