import Foundation
import Synchronization
import TallyAccounts
import TallyOIDC
import TallyStore

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
  /// The Content-Security-Policy the pages carry, its `form-action` naming the provider.
  public let policy: PagePolicy

  /// `client` keeps its sign-ins in progress in `pending`, the server's store, so any instance
  /// on the database may finish one.
  public init(settings: OIDCSettings, client: OIDCClient, pending: any PendingSignInRepository) {
    self.settings = settings
    self.client = client.keeping(pendingSignIns: StoredPendingSignIns(store: pending))
    policy = PagePolicy()
  }
}

/// The pages' Content-Security-Policy. A form's redirect to another site is held to the
/// policy's `form-action` (Chromium checks it), and both the sign-in form and the sign-out
/// form end at the provider: its origins are added once discovery has named them.
public final class PagePolicy: Sendable {
  public static let standard =
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    + "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"

  private let text = Mutex(PagePolicy.standard)

  public init() {}

  public var header: String { text.withLock { $0 } }

  /// Lets forms lead to these pages of the provider's.
  func allowForms(to urls: [URL]) {
    let origins = Set(urls.compactMap(Self.origin)).sorted()
    text.withLock { $0 = Self.standard + origins.map { " " + $0 }.joined() }
  }

  private static func origin(_ url: URL) -> String? {
    guard let scheme = url.scheme?.lowercased(), let host = url.host else { return nil }
    let bracketed = host.contains(":") ? "[\(host)]" : host
    return "\(scheme)://\(bracketed)" + (url.port.map { ":\($0)" } ?? "")
  }
}

extension ProviderSignIn {
  /// At start-up: a provider whose discovery document is missing, is not JSON or names
  /// another issuer keeps the server from starting, rather than failing each person later.
  public func checkProvider() async throws {
    allowForms(by: try await Self.metadata(of: settings, from: client))
  }

  /// The provider's discovery document, or the reason `tally serve` gives for not starting.
  public static func metadata(of settings: OIDCSettings, from client: OIDCClient) async throws -> ProviderMetadata {
    do {
      return try await client.metadata()
    } catch let error as OIDCError {
      throw ProviderStartFailure(description: "--oidc-issuer \(settings.client.issuer.text) cannot be used: \(error)")
    }
  }

  /// Lets the pages' forms lead to the provider's sign-in and sign-out pages.
  public func allowForms(by metadata: ProviderMetadata) {
    policy.allowForms(to: [metadata.authorizationEndpoint] + (metadata.endSessionEndpoint.map { [$0] } ?? []))
  }
}

/// Why `tally serve` would not start with the provider it was given.
public struct ProviderStartFailure: Error, CustomStringConvertible, Equatable {
  public let description: String

  public init(description: String) { self.description = description }
}
