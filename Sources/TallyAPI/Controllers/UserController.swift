import Foundation
import Hummingbird
import TallyAccounts
import TallyHTTP
import TallyStore

/// The owner's list of accounts, and adding one (sign-up is off by default).
struct UserController {
  let services: AppServices

  func addRoutes(to group: RouterGroup<AppRequestContext>) {
    group.get("users", use: list)
    group.post("users", use: add)
  }

  @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<[AccountJSON]> {
    try await requireOwner(context)
    var accounts: [AccountJSON] = []
    for user in try await services.store.users() {
      accounts.append(AccountJSON(user: user, role: try await services.store.credential(for: user.id)?.role))
    }
    return JSONResponse(accounts)
  }

  @Sendable func add(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<AccountJSON> {
    try await requireOwner(context)
    let body = try await request.decodeJSON(CredentialsBody.self, limit: services.configuration.maxBodySize)
    let user = try await services.accounts.addUser(
      name: body.name, password: body.password, settings: try body.settings(for: request), at: services.clock())
    return JSONResponse(AccountJSON(user: user, role: .member), status: .created)
  }

  private func requireOwner(_ context: AppRequestContext) async throws {
    let user = try context.requireUser()
    guard try await services.store.ownerID() == user.id else { throw Problem.ownerOnly }
  }
}
