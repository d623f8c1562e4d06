import Foundation
import Hummingbird
import TallyHTTP
import TallyStore

/// `/healthz` for load balancers. Metrics are served on their own listener
/// (``buildMetricsRouter(_:)``).
struct HealthController {
  let services: AppServices

  func addRoutes(to router: Router<AppRequestContext>) {
    router.get("healthz", use: health)
  }

  /// 200 when the database answers a read; 503 naming the failure otherwise.
  @Sendable func health(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<[String: String]> {
    do {
      _ = try await services.store.ownerID()
    } catch {
      throw Problem(.serviceUnavailable, "The database cannot be read: \(error).")
    }
    return JSONResponse(["status": "ok"])
  }
}
