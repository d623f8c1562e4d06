import Foundation
import TallyCore
import TallyOIDC
import TallyStore

/// Who may come in through the OpenID Connect provider, and as which account
/// (`tally serve --oidc-new-accounts`, `--oidc-allowed-group`, `--oidc-owner-group`).
public struct ProviderAccountRules: Sendable, Equatable {
  public enum NewAccounts: String, Sendable, CaseIterable {
    /// Anyone the provider admits gets an account at their first sign-in.
    case create
    /// Only people holding an owner's invitation get one.
    case invited
  }

  public var newAccounts: NewAccounts
  /// When set, only members of this group (the ID token's `groups`) come in, every time.
  public var allowedGroup: String?
  /// When set, only a member of this group may become the owner of a server that has none.
  public var ownerGroup: String?

  public init(newAccounts: NewAccounts = .invited, allowedGroup: String? = nil, ownerGroup: String? = nil) {
    self.newAccounts = newAccounts
    self.allowedGroup = allowedGroup
    self.ownerGroup = ownerGroup
  }
}

/// Why a person the provider vouched for was not let in.
public enum ProviderSignInError: Error, Equatable, Sendable, CustomStringConvertible {
  case notInAllowedGroup(String)
  case notInOwnerGroup(String)
  case notInvited
  case linkedToAnotherAccount

  public var description: String {
    switch self {
    case .notInAllowedGroup(let group):
      "Your account with the provider is not in the group \(group), which this server admits."
    case .notInOwnerGroup(let group):
      "This server is waiting for its owner, who must be in the group \(group) at the provider."
    case .notInvited:
      "This server makes accounts only for people its owner invited: ask the owner for an invitation link."
    case .linkedToAnotherAccount:
      "That sign-in is already linked to another account on this server."
    }
  }
}

extension AccountService {
  /// The account `person` signs in as, made now if the rules allow: a person already linked
  /// is found; on a server with no owner, the first person becomes it; then an invitation
  /// (its secret, from the link the person followed) or `create` makes a member. A new
  /// account's password is a random one nobody is told: the owner can set one from the CLI.
  /// A new account's zone and locale are the browser's (`locale` from its `Accept-Language`).
  public func account(
    for person: OIDCIdentity, rules: ProviderAccountRules, invitation: String?, timeZone: String?,
    locale: String? = nil, at now: Date
  ) async throws -> User {
    if let group = rules.allowedGroup, !person.groups.contains(group) {
      throw ProviderSignInError.notInAllowedGroup(group)
    }
    if let user = try await store.user(issuer: person.issuer, subject: person.subject) { return user }
    let role: AccountRole
    if try await needsSetUp() {
      if let group = rules.ownerGroup, !person.groups.contains(group) { throw ProviderSignInError.notInOwnerGroup(group) }
      role = .owner
    } else if invitation == nil, rules.newAccounts == .invited {
      throw ProviderSignInError.notInvited
    } else {
      role = .member
    }
    let settings = UserSettings.newAccount(
      timeZone: timeZone.flatMap { TimeZone(identifier: $0) == nil ? nil : $0 } ?? "UTC", locale: locale)
    let user = try User(id: UUID(), name: try await freeName(for: person), settings: settings)
    let credential = try PasswordCredential(
      userID: user.id, passwordHash: unknownPasswordHash(), role: role, updatedAt: now)
    let identity = try ProviderIdentity(issuer: person.issuer, subject: person.subject, userID: user.id, createdAt: now)
    do {
      let created = try await store.createAccount(
        user, credential: credential, identity: identity,
        invitationHash: invitation.map { SecretToken(secret: $0).hash })
      try await store.seedPrices(PriceTable.defaults, for: created.id)
      return created
    } catch StoreError.conflict(let what) {
      // The same person's second tab, a moment earlier, made the account.
      if let user = try await store.user(issuer: person.issuer, subject: person.subject) { return user }
      throw StoreError.conflict(what)
    }
  }

  /// Links `person` to a signed-in user, who proved both sign-ins in one visit.
  public func link(_ person: OIDCIdentity, to user: UUID, at now: Date) async throws {
    do {
      try await store.linkIdentity(
        ProviderIdentity(issuer: person.issuer, subject: person.subject, userID: user, createdAt: now))
    } catch StoreError.conflict {
      throw ProviderSignInError.linkedToAnotherAccount
    }
  }

  /// A new invitation by `owner`; the secret goes into the link and is never stored.
  public func invite(by owner: UUID, lifetime: TimeInterval = 7 * 86_400, at now: Date) async throws
    -> (invitation: Invitation, secret: SecretToken)
  {
    let secret = makeSecret("")
    let invitation = try Invitation(
      tokenHash: secret.hash, createdBy: owner, createdAt: now, expiresAt: now.addingTimeInterval(lifetime))
    try await store.createInvitation(invitation)
    return (invitation, secret)
  }

  /// The provider's name for the person, made unique here: their username, name or e-mail's
  /// first part, then the same with a number.
  private func freeName(for person: OIDCIdentity) async throws -> String {
    let given = [person.preferredUsername, person.name, person.email.map { String($0.prefix { $0 != "@" }) }]
      .compactMap { $0?.trimmingCharacters(in: .whitespacesAndNewlines) }
      .first { !$0.isEmpty && !$0.contains("\0") } ?? "member"
    let base = String(given.prefix(User.nameLengths.upperBound - 4))
    for suffix in [""] + (2...99).map({ " \($0)" }) where try await !nameTaken(base + suffix) {
      return base + suffix
    }
    return base + " " + String(UUID().uuidString.prefix(8))
  }

  private func nameTaken(_ name: String) async throws -> Bool {
    do {
      _ = try await store.user(named: name)
      return true
    } catch StoreError.notFound {
      return false
    }
  }
}
