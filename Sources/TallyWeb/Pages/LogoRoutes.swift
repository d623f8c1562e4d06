import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import TallyCore
import TallyHTTP
import TallyStore

/// `GET /logos/{key}`: a provider logo one of the user's shows names, fetched and kept by the
/// server (``LogoCache``), so pages load images from Tally's own origin only. Any other key,
/// and a logo that cannot be had, is a 404; the page then shows the provider's empty disc.
struct LogoRoutes {
  let services: AppServices

  func addRoutes(to group: RouterGroup<AppRequestContext>) {
    group.get("logos/{key}", use: logo)
  }

  @Sendable func logo(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let path = "/logos/" + (context.parameters.get("key") ?? "")
    let shows = try await services.store.shows(for: user.id)
    let named = shows.lazy.flatMap { $0.providers.values.joined() }.compactMap(\.logoURL)
    guard let url = named.first(where: { LogoCache.path(for: $0) == path }),
      let image = await services.logos.image(at: url)
    else {
      throw Problem(.notFound, "No such logo.")
    }
    return Response(
      status: .ok,
      headers: [.contentType: image.contentType, .cacheControl: "private, max-age=86400"],
      body: .init(byteBuffer: ByteBuffer(bytes: image.data)))
  }
}
