import HTTPTypes
import Hummingbird
import TallyHTTP

/// The stylesheet, script, icons and the web app manifest, from memory with ETags.
struct AssetRoutes {
  func addRoutes(to router: Router<AppRequestContext>) {
    router.get("assets/{name}") { request, context in
      guard let name = context.parameters.get("name"),
        let response = Assets.shared.response(for: name, request: request)
      else { throw Problem(.notFound, "There is no such file.") }
      return response
    }
    // Browsers ask for it on pages that name no icon (a JSON or image view).
    router.get("favicon.ico") { request, _ in
      guard let response = Assets.shared.response(for: "icon.svg", request: request) else {
        throw Problem(.notFound, "There is no such file.")
      }
      return response
    }
    // The service worker must be served from the root for its scope to be the whole site.
    router.get("sw.js") { request, _ in
      guard var response = Assets.shared.response(for: "sw.js", request: request) else {
        throw Problem(.notFound, "There is no such file.")
      }
      response.headers[HTTPField.Name("Service-Worker-Allowed")!] = "/"
      return response
    }
    router.get("manifest.webmanifest") { request, context in InstallManifest.response(for: request, user: context.user) }
  }
}
