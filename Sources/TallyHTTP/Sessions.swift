import Foundation
import HTTPTypes
import Hummingbird
import TallyAccounts
import TallyCore
import TallyStore

extension AppServices {
  /// The cookie a browser session rides in.
  package static let sessionCookieName = "tally_session"

  /// Checks a password, throttled per name and client address: after too many failures the
  /// name is refused for a while, however right the password, by every instance on the
  /// database.
  package func signIn(name: String, password: String, address: String) async throws
    -> (user: User, session: BrowserSession, secret: SecretToken)
  {
    try refusePasswordsWhenProviderOnly()
    let now = clock()
    let key = SignInThrottle.key(name: name, address: address)
    let attempt = try await throttle.attempt(key, at: now)
    do {
      let result = try await accounts.signIn(name: name, password: password, at: now)
      await throttle.reset(key)
      return result
    } catch AccountError.wrongNameOrPassword {
      throw AccountError.wrongNameOrPassword
    } catch {
      await throttle.release(attempt)
      throw error
    }
  }

  /// With `--oidc-only`, a password opens no session and makes no account, through the pages
  /// or the API; the CLI still reaches the database.
  package func refusePasswordsWhenProviderOnly() throws {
    guard providerSignIn?.settings.only == true else { return }
    throw AccountError.passwordsOff
  }

  /// `HttpOnly`, `SameSite=Lax`, and `Secure` when the request came over HTTPS (as a trusted
  /// proxy says) or the configuration insists.
  package func sessionCookie(_ value: String, context: AppRequestContext, maxAge: Int? = nil) -> Cookie {
    Cookie(
      name: Self.sessionCookieName, value: value,
      maxAge: maxAge ?? Int(accounts.sessionLifetime), path: "/", secure: context.overHTTPS,
      httpOnly: true, sameSite: .lax)
  }
}
