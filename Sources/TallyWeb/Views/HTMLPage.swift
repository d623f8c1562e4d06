import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import TallyCore
import TallyHTTP
import TallyLocalization
import TallyStore

/// A server-rendered page. Pages hold the signed-in user's data, so no cache keeps them.
struct HTMLPage: ResponseGenerator, Sendable {
  var status: HTTPResponse.Status = .ok
  let html: String

  init(_ html: String, status: HTTPResponse.Status = .ok) {
    self.html = html
    self.status = status
  }

  func response(from request: Request, context: some RequestContext) throws -> Response {
    Response(
      status: status,
      headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
      body: .init(byteBuffer: ByteBuffer(string: html)))
  }
}

extension Response {
  /// After a form post: the browser fetches `location` with GET, so reloading the page it
  /// lands on never sends the form twice.
  static func seeOther(_ location: String) -> Response {
    Response(status: .seeOther, headers: [.location: location])
  }
}

extension AppServices {
  /// A page kept in the response cache until the next write: the key holds the user, their
  /// today, the theme, the language and the URI (and `variant`, for what else the page was made
  /// for), so no page is shown to another user, on another day, in another theme or language. `make` gets the
  /// user's revision, which the page names for its live stream.
  func cachedPage(
    for user: User, today: Day, request: Request, variant: String = "", speech: PageSpeech = .english,
    make: (StoreRevision) async throws -> HTMLPage
  ) async throws -> Response {
    let revision = try await store.revision(for: user.id)
    let key =
      "page|\(user.id.storeText)|\(today)|\(Theme(request: request).rawValue)|\(speech.translator.code)|\(variant)|\(request.uri)"
    return try await cache.response(
      for: key, revision: revision, request: request, contentType: "text/html; charset=utf-8"
    ) {
      Data(try await make(revision).html.utf8)
    }
  }
}
