import Foundation
import Hummingbird
import Prometheus
import TallyStore

/// `/healthz` for load balancers and `/metrics` for Prometheus.
struct HealthController {
  let services: AppServices
  /// `nil` when the process did not bootstrap metrics (tests): `/metrics` is then empty.
  let metrics: PrometheusCollectorRegistry?

  func addRoutes(to router: Router<AppRequestContext>) {
    router.get("healthz", use: health)
    router.get("metrics", use: emitMetrics)
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

  @Sendable func emitMetrics(_ request: Request, context: AppRequestContext) -> Response {
    let text = metrics?.emitToString() ?? ""
    return Response(
      status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
      body: .init(byteBuffer: ByteBuffer(string: text)))
  }
}
