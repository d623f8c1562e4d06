import Foundation
import Hummingbird
import TallyAccounts
import TallyHTTP
import TallyStore

/// Personal API tokens: list, create (the secret is shown once), revoke.
struct TokenController {
  let services: AppServices

  struct TokenJSON: Encodable, Sendable {
    var id: String
    var name: String
    var createdAt: Date
    var expiresAt: Date?
    /// Only in the answer to the request that made the token.
    var secret: String?
  }

  struct CreateBody: JSONBody {
    var name: String
    var expiresAt: Date?
    static let fields: Set<String> = ["name", "expiresAt"]
    static let textLimits = ["name": 100]
  }

  func addRoutes(to group: RouterGroup<AppRequestContext>) {
    group.get("tokens", use: list)
    group.post("tokens", use: create)
    group.delete("tokens/{id}", use: revoke)
  }

  @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<[TokenJSON]> {
    let user = try context.requireUser()
    return JSONResponse(try await services.store.apiTokens(for: user.id).map { TokenJSON($0, secret: nil) })
  }

  @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<TokenJSON> {
    let user = try context.requireUser()
    let body = try await request.decodeJSON(CreateBody.self, limit: services.configuration.maxBodySize)
    let now = services.clock()
    if let expiresAt = body.expiresAt, expiresAt <= now {
      throw Problem(.unprocessableContent, "The token's expiresAt must be in the future.", field: "expiresAt")
    }
    let made = try await services.accounts.createAPIToken(
      name: body.name, for: user.id, expiresAt: body.expiresAt, at: now)
    return JSONResponse(TokenJSON(made.token, secret: made.secret.secret), status: .created)
  }

  @Sendable func revoke(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    try await services.store.deleteAPIToken(id: try context.parameters.requireID("id"), for: user.id)
    return Response(status: .noContent)
  }
}

extension TokenController.TokenJSON {
  init(_ token: APIToken, secret: String?) {
    self.init(id: token.id.storeText, name: token.name, createdAt: token.createdAt, expiresAt: token.expiresAt, secret: secret)
  }
}
