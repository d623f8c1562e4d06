import Foundation
import Hummingbird
import NIOCore
import TallyHTTP

/// The JSON API under `/api/v1` with its OpenAPI document, the calendar feeds and `/healthz`.
public enum APIRoutes {
  static let prefix = "api/v1"
  /// Where a device holds its live stream (``LiveController``), which outlives every other request.
  public static let livePath = "/\(prefix)/\(LiveController.path)"

  public static func add(to router: Router<AppRequestContext>, services: AppServices) {
    HealthController(services: services).addRoutes(to: router)
    FeedController(services: services).addRoutes(to: router)
    let api = router.group(.init(stringLiteral: prefix))
    api.get("openapi.json") { _, _ in
      Response(
        status: .ok, headers: [.contentType: "application/json"],
        body: .init(byteBuffer: ByteBuffer(bytes: OpenAPIDocument.data)))
    }
    AccountController(services: services).addRoutes(to: api)
    UserController(services: services).addRoutes(to: api)
    TokenController(services: services).addRoutes(to: api)
    SettingsController(services: services).addRoutes(to: api)
    HabitController(services: services).addRoutes(to: api)
    PauseController(services: services).addRoutes(to: api)
    EntryController(services: services).addRoutes(to: api)
    StatisticsController(services: services).addRoutes(to: api)
    TodayController(services: services).addRoutes(to: api)
    JournalController(services: services).addRoutes(to: api)
    StreamingController(services: services).addRoutes(to: api)
    AiringController(services: services).addRoutes(to: api)
    ReminderController(services: services).addRoutes(to: api)
    ReminderChannelController(services: services).addRoutes(to: api)
    PushController(services: services).addRoutes(to: api)
    TransferController(services: services).addRoutes(to: api)
    SyncController(services: services).addRoutes(to: api)
    LiveController(services: services).addRoutes(to: api)
  }
}
