import Foundation
import TallyCore

/// Why an account action was refused, in sentences a person reads.
public enum AccountError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The server already has an owner, so set-up is closed.
  case alreadySetUp
  /// The name or the password is wrong; which one is not said, on purpose.
  case wrongNameOrPassword
  /// Too many failed sign-ins for this name from this address.
  case throttled(retryAfter: Int)
  /// Passwords are off (`--oidc-only`): people sign in through the identity provider.
  case passwordsOff

  public var description: String {
    switch self {
    case .alreadySetUp:
      "This server is already set up; ask its owner for an account."
    case .wrongNameOrPassword:
      "The name or the password is wrong."
    case .throttled(let seconds):
      "Too many failed sign-ins; try again in \(seconds) seconds."
    case .passwordsOff:
      "This server signs people in through its identity provider only."
    }
  }
}
