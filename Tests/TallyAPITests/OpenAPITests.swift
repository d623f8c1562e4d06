import Foundation
import Hummingbird
import HummingbirdTesting
import TallyAPI
import TallyHTTP
import TallyServer
import TallyServerTesting
import Testing

@Suite struct OpenAPITests {
  /// Every API route the router serves is in the document, and the document promises no
  /// route the router lacks. Web pages and their assets are HTML for people, not API;
  /// the calendar feeds are documented because apps subscribe to them.
  @Test func theDocumentAndTheRouterNameTheSameOperations() throws {
    let server = try TestServer()
    let routes = Set(
      buildRouter(server.services).routes
        .filter {
          let path = "\($0.path)"
          return path.hasPrefix("/api/") || path.hasPrefix("/feeds/") || path == "/healthz"
        }
        .map { "\($0.method.rawValue) \($0.path)" })
    let document = try OpenAPIDocument.merged()
    let paths = try #require(document["paths"] as? [String: [String: Any]])
    let documented = Set(
      paths.flatMap { path, operations in
        operations.keys.filter { $0 != "parameters" }.map { "\($0.uppercased()) \(path)" }
      })
    #expect(routes.subtracting(documented).sorted() == [], "routes missing from the OpenAPI document")
    #expect(documented.subtracting(routes).sorted() == [], "documented operations the router lacks")
  }

  /// Every `$ref` points at something the document defines.
  @Test func everyReferenceResolves() throws {
    let document = try OpenAPIDocument.merged()
    var references: [String] = []
    func collect(_ value: Any) {
      if let object = value as? [String: Any] {
        if let ref = object["$ref"] as? String { references.append(ref) }
        object.values.forEach(collect)
      } else if let array = value as? [Any] {
        array.forEach(collect)
      }
    }
    collect(document)
    #expect(!references.isEmpty)
    for reference in Set(references) {
      var current: Any? = document
      for key in reference.dropFirst(2).split(separator: "/") {
        current = (current as? [String: Any])?[String(key)]
      }
      #expect(current != nil, "\(reference) resolves to nothing")
    }
  }

  @Test func theDocumentIsServed() async throws {
    try await TestServer().test { client in
      let response = try await client.send(.get, "/api/v1/openapi.json")
      #expect(response.status == .ok)
      #expect(response.object["openapi"] as? String == "3.1.0")
    }
  }
}
