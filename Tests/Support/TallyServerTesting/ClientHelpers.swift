import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

extension TestClientProtocol {
  /// The owner adds a member; returns the member's session headers.
  package func memberSession(_ name: String = "bob", owner: HTTPFields) async throws -> HTTPFields {
    let added = try await send(.post, "/api/v1/users", json: ["name": name, "password": "battery staple"], headers: owner)
    #expect(added.status == .created)
    return try await signIn(name, password: "battery staple")
  }

  /// The signed-in user's id, to reach the store directly.
  package func userID(_ headers: HTTPFields) async throws -> UUID {
    let me = try await send(.get, "/api/v1/me", headers: headers)
    return try #require(UUID(uuidString: me.object["id"] as? String ?? ""))
  }
}

extension TestResponse {
  /// A key path into an object body, like `dateRow.scrollTarget.index`.
  package func value(_ path: String) -> Any? {
    var current: Any? = object
    for key in path.split(separator: ".") { current = (current as? [String: Any])?[String(key)] }
    return current
  }
}
