import Foundation
import TallyAccounts
import TallyOIDC

/// `tally serve --oidc-*`: the provider, Tally's registration with it, and who may come in.
public struct OIDCSettings: Sendable {
  public var client: OIDCConfiguration
  public var rules: ProviderAccountRules
  /// Names the provider on the sign-in page's button: "Sign in with NAME".
  public var displayName: String
  /// Hides the password form; the owner keeps a way in from the CLI.
  public var only: Bool

  public init(client: OIDCConfiguration, rules: ProviderAccountRules, displayName: String, only: Bool = false) {
    self.client = client
    self.rules = rules
    self.displayName = displayName
    self.only = only
  }
}

/// Sign-in through the provider as the pages offer it: the settings and the client that
/// talks to the provider.
public struct ProviderSignIn: Sendable {
  public let settings: OIDCSettings
  public let client: OIDCClient

  public init(settings: OIDCSettings, transport: any ProviderTransport, now: @escaping @Sendable () -> Date) {
    self.settings = settings
    client = OIDCClient(configuration: settings.client, transport: transport, now: now)
  }
}

extension ProviderSignIn {
  /// At start-up: a provider whose discovery document is missing, is not JSON or names
  /// another issuer keeps the server from starting, rather than failing each person later.
  public func checkProvider() async throws {
    do {
      _ = try await client.endSessionEndpoint()
    } catch let error as OIDCError {
      throw ProviderStartFailure(
        description: "--oidc-issuer \(settings.client.issuer.text) cannot be used: \(error)")
    }
  }
}

/// Why `tally serve` would not start with the provider it was given.
public struct ProviderStartFailure: Error, CustomStringConvertible, Equatable {
  public let description: String

  public init(description: String) { self.description = description }
}
