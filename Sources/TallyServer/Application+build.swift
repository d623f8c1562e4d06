import Foundation
import Hummingbird
import Logging
import Metrics
import Prometheus
import ServiceLifecycle
import TallySQLite
import TallyStore

/// The whole server: opens the store, builds the router, and returns an application that
/// `runService()` runs until SIGTERM or SIGINT, finishing the requests in flight.
public func buildApplication(
  _ configuration: ServerConfiguration,
  metrics: PrometheusCollectorRegistry? = nil,
  clock: @escaping @Sendable () -> Date = { Date() },
  onServerRunning: @escaping @Sendable () async -> Void = {}
) throws -> some ApplicationProtocol {
  var logger = Logger(label: "tally")
  logger.logLevel = Logger.Level(rawValue: configuration.logLevel) ?? .info
  let database =
    if let path = configuration.databasePath { try AppDatabase.open(at: path) } else { try AppDatabase.inMemory() }
  let store: any Store = SQLiteStore(database)
  let services = AppServices(store: store, configuration: configuration, clock: clock)
  let router = buildRouter(services, metrics: metrics)
  var app = Application(
    router: router,
    configuration: .init(
      address: .hostname(configuration.host, port: configuration.port), serverName: "Tally"),
    onServerRunning: { _ in await onServerRunning() },
    logger: logger)
  if let directory = configuration.backupDirectory, configuration.databasePath != nil {
    app.addServices(
      DailyBackups(database: database, directory: directory, keep: configuration.backupKeep, clock: clock, logger: logger))
  }
  // The webhook sender runs beside the server in the same service group: its own task, so
  // request handling never waits for it, and it stops with the server.
  app.addServices(ReminderSender(store: store, clock: clock, logger: logger))
  return app
}

/// Every route and the middleware in front of them: errors as problems, security headers,
/// metrics, who the request is from, and the cross-site check before anything changes. The
/// web pages sit beside the API on the same services.
public func buildRouter(_ services: AppServices, metrics: PrometheusCollectorRegistry? = nil)
  -> Router<AppRequestContext>
{
  let router = Router(context: AppRequestContext.self)
  router.add(middleware: LogRequestsMiddleware(.debug))
  if metrics != nil { router.add(middleware: MetricsMiddleware()) }
  router.add(middleware: SecurityHeadersMiddleware())
  router.add(middleware: ProblemMiddleware())
  router.add(middleware: AuthenticationMiddleware(services: services))
  router.add(middleware: CrossSiteRequestMiddleware())

  HealthController(services: services, metrics: metrics).addRoutes(to: router)
  FeedController(services: services).addRoutes(to: router)
  let api = router.group("api/v1")
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
  EntryController(services: services).addRoutes(to: api)
  StatisticsController(services: services).addRoutes(to: api)
  TodayController(services: services).addRoutes(to: api)
  JournalController(services: services).addRoutes(to: api)
  StreamingController(services: services).addRoutes(to: api)
  AiringController(services: services).addRoutes(to: api)
  ReminderController(services: services).addRoutes(to: api)
  ReminderChannelController(services: services).addRoutes(to: api)
  TransferController(services: services).addRoutes(to: api)

  AssetRoutes().addRoutes(to: router)
  AccountPages(services: services).addRoutes(to: router)
  let pages = router.group().add(middleware: PageMiddleware(services: services))
  TodayPages(services: services).addRoutes(to: pages)
  JournalPages(services: services).addRoutes(to: pages)
  HabitPages(services: services).addRoutes(to: pages)
  StatisticsPages(services: services).addRoutes(to: pages)
  CalendarPages(services: services).addRoutes(to: pages)
  ShowPages(services: services).addRoutes(to: pages)
  SettingsPages(services: services).addRoutes(to: pages)
  ReminderSettingsPages(services: services).addRoutes(to: pages)
  return router
}

/// What `tally serve` runs: metrics into Prometheus, the application, until a signal stops it.
public func runServer(
  _ configuration: ServerConfiguration, clock: @escaping @Sendable () -> Date = { Date() },
  onServerRunning: @escaping @Sendable () async -> Void
) async throws {
  let app = try buildApplication(
    configuration, metrics: ServerMetrics.bootstrap(), clock: clock, onServerRunning: onServerRunning)
  try await app.runService()
}
