import Foundation
import TallyCore

extension InMemoryStore {
  public func createAccount(_ user: User, credential: PasswordCredential) throws -> User {
    try checkSecondOwner(credential)
    let created = try createUser(user)
    var credential = credential
    credential.userID = created.id
    credentialsByUser[created.id] = credential
    return created
  }

  public func setCredential(_ credential: PasswordCredential) throws {
    try requireUser(credential.userID)
    try checkSecondOwner(credential)
    credentialsByUser[credential.userID] = credential
  }

  public func credential(for user: UUID) -> PasswordCredential? {
    credentialsByUser[user]
  }

  public func ownerID() -> UUID? {
    credentialsByUser.values.first { $0.role == .owner }?.userID
  }

  private func checkSecondOwner(_ credential: PasswordCredential) throws(StoreError) {
    guard credential.role == .owner, let owner = ownerID(), owner != credential.userID else { return }
    throw .conflict("this server already has an owner")
  }
}
