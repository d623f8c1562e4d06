/// Who the provider signed in. The person is the pair (`issuer`, `subject`): never the name or
/// the e-mail, which a person may change and a provider may let anyone set. The rest is what
/// the ID token said, for a new account's name and for group rules.
public struct OIDCIdentity: Sendable, Hashable {
  public let issuer: String
  public let subject: String
  public let name: String?
  public let preferredUsername: String?
  public let email: String?
  public let emailVerified: Bool?
  public let groups: [String]

  public init(
    issuer: String, subject: String, name: String? = nil, preferredUsername: String? = nil,
    email: String? = nil, emailVerified: Bool? = nil, groups: [String] = []
  ) {
    self.issuer = issuer
    self.subject = subject
    self.name = name
    self.preferredUsername = preferredUsername
    self.email = email
    self.emailVerified = emailVerified
    self.groups = groups
  }
}
