import ArgumentParser
import Foundation
import TallyAccounts
import TallyHTTP
import TallyOIDC

/// `tally serve --oidc-*`: sign-in through an OpenID Connect provider (docs/oidc.md).
struct OIDCOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Sign people in through this OpenID Connect provider ($TALLY_OIDC_ISSUER).",
      discussion: "Its issuer URL, https (plain http only on loopback). Register the redirect URL https://YOUR-TALLY/signin/oidc/callback with it.",
      valueName: "url"))
  var oidcIssuer: String?

  @Option(help: ArgumentHelp("Tally's client id at the provider ($TALLY_OIDC_CLIENT_ID).", valueName: "id"))
  var oidcClientId: String?

  @Option(
    help: ArgumentHelp(
      "A file holding the client secret ($TALLY_OIDC_CLIENT_SECRET_FILE, or the secret itself in $TALLY_OIDC_CLIENT_SECRET).",
      discussion: "Readable by its owner only (chmod 600); never give the secret on the command line.",
      valueName: "file"))
  var oidcClientSecretFile: String?

  @Option(help: ArgumentHelp("The provider's name on the sign-in button ($TALLY_OIDC_NAME; default its host).", valueName: "name"))
  var oidcName: String?

  @Option(
    help: ArgumentHelp(
      "Who gets an account at a first sign-in: 'create' (anyone the provider admits) or 'invited' ($TALLY_OIDC_NEW_ACCOUNTS; default invited).",
      valueName: "rule"))
  var oidcNewAccounts: String?

  @Option(help: ArgumentHelp("Admit only members of this group, from the groups claim ($TALLY_OIDC_ALLOWED_GROUP).", valueName: "group"))
  var oidcAllowedGroup: String?

  @Option(
    help: ArgumentHelp(
      "Only a member of this group may become the owner of a server without one ($TALLY_OIDC_OWNER_GROUP).", valueName: "group"))
  var oidcOwnerGroup: String?

  @Flag(help: "Hide the password form and refuse passwords: sign in through the provider only ($TALLY_OIDC_ONLY=1).")
  var oidcOnly = false

  /// Flags first, then the environment; `nil` when no issuer is given anywhere.
  func settings(_ environment: [String: String]) throws -> OIDCSettings? {
    func value(_ flag: String?, _ name: String) -> String? {
      (flag ?? environment[name]).flatMap { $0.isEmpty ? nil : $0 }
    }
    let only = oidcOnly || environment["TALLY_OIDC_ONLY"] == "1"
    guard let issuerText = value(oidcIssuer, "TALLY_OIDC_ISSUER") else {
      let others: [(String, Bool)] = [
        ("--oidc-client-id", oidcClientId != nil), ("--oidc-client-secret-file", oidcClientSecretFile != nil),
        ("--oidc-name", oidcName != nil), ("--oidc-new-accounts", oidcNewAccounts != nil),
        ("--oidc-allowed-group", oidcAllowedGroup != nil), ("--oidc-owner-group", oidcOwnerGroup != nil),
        ("--oidc-only", only),
      ]
      if let given = others.first(where: \.1) {
        throw Self.failure("The \(given.0) needs --oidc-issuer (TALLY_OIDC_ISSUER), the provider it is about.")
      }
      return nil
    }
    let issuer: IssuerURL
    do {
      issuer = try IssuerURL(issuerText)
    } catch {
      throw Self.failure("The --oidc-issuer cannot be used: \(error)")
    }
    guard let clientID = value(oidcClientId, "TALLY_OIDC_CLIENT_ID") else {
      throw Self.failure("The --oidc-issuer needs --oidc-client-id (TALLY_OIDC_CLIENT_ID): Tally's client id at the provider.")
    }
    let secret = try clientSecret(environment)
    let rulesText = value(oidcNewAccounts, "TALLY_OIDC_NEW_ACCOUNTS") ?? ProviderAccountRules.NewAccounts.invited.rawValue
    guard let newAccounts = ProviderAccountRules.NewAccounts(rawValue: rulesText) else {
      throw Self.failure("The --oidc-new-accounts must be 'create' or 'invited', not '\(rulesText)'.")
    }
    return OIDCSettings(
      client: OIDCConfiguration(
        issuer: issuer, clientID: clientID, clientSecret: secret,
        redirectURI: ""),
      rules: ProviderAccountRules(
        newAccounts: newAccounts, allowedGroup: value(oidcAllowedGroup, "TALLY_OIDC_ALLOWED_GROUP"),
        ownerGroup: value(oidcOwnerGroup, "TALLY_OIDC_OWNER_GROUP")),
      displayName: value(oidcName, "TALLY_OIDC_NAME") ?? URL(string: issuer.text)?.host ?? issuer.text,
      only: only)
  }

  /// The secret from its file (the owner's alone to read) or the environment; never a flag,
  /// which every user of the machine sees in the process list.
  private func clientSecret(_ environment: [String: String]) throws -> String {
    guard let path = oidcClientSecretFile ?? environment["TALLY_OIDC_CLIENT_SECRET_FILE"].flatMap({ $0.isEmpty ? nil : $0 })
    else {
      guard let secret = environment["TALLY_OIDC_CLIENT_SECRET"], !secret.isEmpty else {
        throw Self.failure(
          "The --oidc-issuer needs the client secret: --oidc-client-secret-file FILE or TALLY_OIDC_CLIENT_SECRET.")
      }
      return secret
    }
    let attributes: [FileAttributeKey: Any]
    do {
      attributes = try FileManager.default.attributesOfItem(atPath: path)
    } catch {
      throw Self.failure("The --oidc-client-secret-file \(path) cannot be read: there is no such file.")
    }
    let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? 0
    guard mode & 0o077 == 0 else {
      throw Self.failure(
        "The --oidc-client-secret-file \(path) is readable by others (mode \(String(mode, radix: 8))): "
          + "run chmod 600 \(path).")
    }
    guard let data = FileManager.default.contents(atPath: path), data.count <= 4096,
      let text = String(data: data, encoding: .utf8)
    else {
      throw Self.failure("The --oidc-client-secret-file \(path) cannot be read as a secret of at most 4 KiB of text.")
    }
    let secret = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !secret.isEmpty else { throw Self.failure("The --oidc-client-secret-file \(path) is empty.") }
    return secret
  }

  private static func failure(_ message: String) -> CommandFailure {
    CommandFailure(message, exitCode: CommandFailure.usage)
  }
}
