import Foundation
import Hummingbird
import Logging
import Metrics
import NIOCore
import Prometheus
import ServiceLifecycle
import TallyAPI
import TallyDelivery
import TallyHeap
import TallyHTTP
import TallyOIDC
import TallySQLite
import TallyStore
import TallySync
import TallyWeb

/// The whole server: opens the store, builds the router, and returns an application that
/// `runService()` runs until SIGTERM or SIGINT, finishing the requests in flight.
public func buildApplication(
  _ configuration: ServerConfiguration,
  metrics: PrometheusCollectorRegistry? = nil,
  clock: @escaping @Sendable () -> Date = { Date() },
  onServerRunning: @escaping @Sendable () async -> Void = {}
) async throws -> some ApplicationProtocol {
  var logger = Logger(label: "tally", factory: LazyMetadataLogHandler.init(label:))
  logger.logLevel = configuration.loggerLevel
  // Before the database is opened: a provider that cannot be used stops the start-up whole.
  var provider: (settings: OIDCSettings, client: OIDCClient, metadata: ProviderMetadata)?
  if let settings = configuration.oidc {
    let client = OIDCClient(configuration: settings.client, transport: HTTPProviderTransport(), now: clock)
    provider = (settings, client, try await ProviderSignIn.metadata(of: settings, from: client))
  }
  let (store, database, closeDatabase) = try await ServerStore.open(configuration, clock: clock, logger: logger)
  let providerSignIn = provider.map { provider in
    let signIn = ProviderSignIn(settings: provider.settings, client: provider.client, pending: store)
    signIn.allowForms(by: provider.metadata)
    return signIn
  }
  let pushKeys = PushKeys(store: store, clock: clock)
  let services = AppServices(
    store: store, configuration: configuration, clock: clock, pushKeys: pushKeys, providerSignIn: providerSignIn)
  let router = buildRouter(services, metrics: metrics)
  var app = Application(
    router: router,
    server: HTTPLimits.server(idleTimeout: configuration.idleTimeout),
    configuration: .init(
      address: .hostname(configuration.host, port: configuration.port), serverName: "Tally"),
    services: [DatabaseClosing(close: closeDatabase, logger: logger)],
    onServerRunning: { _ in await onServerRunning() },
    logger: logger)
  // Metrics have a listener of their own, never the public port (docs/server.md).
  if let metrics, let address = configuration.metricsAddress {
    app.addServices(
      Application(
        router: buildMetricsRouter(metrics),
        server: HTTPLimits.server(idleTimeout: configuration.idleTimeout),
        configuration: .init(address: .hostname(address.host, port: address.port), serverName: "Tally metrics"),
        logger: logger))
  }
  if let directory = configuration.backupDirectory, let database, database.path != nil {
    app.addServices(
      DailyBackups(database: database, directory: directory, keep: configuration.backupKeep, clock: clock, logger: logger))
  }
  app.addServices(LiveTicks(store: store, settings: configuration.live, logger: logger))
  // Once quiet, the heap a burst of requests freed goes back to the system.
  app.addServices(QuietHeapTrim())
  // The reminder sender (webhooks and Web Push) runs beside the server in the same service
  // group: its own task, so request handling never waits for it, and it stops with the server.
  app.addServices(
    ReminderSender(
      store: store, pushKeys: pushKeys, pushSettings: configuration.push, clock: clock, logger: logger,
      words: services.reminderWords))
  return app
}

/// Every route and the middleware in front of them: errors as problems, security headers,
/// metrics, who the request is from, and the cross-site check before anything changes. The
/// web pages sit beside the API on the same services.
public func buildRouter(_ services: AppServices, metrics: PrometheusCollectorRegistry? = nil)
  -> Router<AppRequestContext>
{
  let router = Router(context: AppRequestContext.self)
  let routes = RouteMethods()
  // One stack of fixed types rather than one responder per middleware: fewer and smaller async
  // frames, which a live stream keeps for as long as it is open (docs/sync.md "Where a stream's
  // bytes go").
  router.addMiddleware {
    LiveStreamMiddleware(path: APIRoutes.livePath)
    ForwardedHeadersMiddleware(
      proxies: services.configuration.trustedProxies, alwaysHTTPS: services.configuration.secureCookies)
    // Only where its lines are kept: it costs a stream 3.5 KiB even when it logs nothing.
    if services.configuration.loggerLevel <= .debug { LogRequestsMiddleware(.debug) }
    if metrics != nil { MetricsMiddleware() }
    SecurityHeadersMiddleware(hsts: services.configuration.hsts, providerPolicy: services.providerSignIn?.policy)
    ServerClockMiddleware(clock: services.clock)
    ProblemMiddleware()
    MethodNotAllowedMiddleware(routes: routes)
    AuthenticationMiddleware(services: services)
    CrossSiteRequestMiddleware()
  }

  APIRoutes.add(to: router, services: services)
  WebRoutes.add(to: router, services: services)
  routes.load(router.routes)
  return router
}

/// `GET /metrics` and nothing else: what the metrics listener serves.
public func buildMetricsRouter(_ metrics: PrometheusCollectorRegistry) -> Router<BasicRequestContext> {
  let router = Router(context: BasicRequestContext.self)
  router.get("metrics") { _, _ in
    Response(
      status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
      body: .init(byteBuffer: ByteBuffer(string: metrics.emitToString())))
  }
  return router
}

/// What `tally serve` runs: metrics into Prometheus when they have an address, the
/// application, until a signal stops it. Thread arenas keep at most 4 MiB of free top
/// (`tally_heap_bound_arena_tops`); once the application is built, the pages only start-up
/// used are given back (``StartupPages``).
public func runServer(
  _ configuration: ServerConfiguration, clock: @escaping @Sendable () -> Date = { Date() },
  onServerRunning: @escaping @Sendable () async -> Void
) async throws {
  tally_heap_bound_arena_tops()
  let metrics = configuration.metricsAddress == nil ? nil : ServerMetrics.bootstrap()
  let app = try await buildApplication(configuration, metrics: metrics, clock: clock, onServerRunning: onServerRunning)
  // Before it listens, so no request waits on the advice or on code it took back.
  StartupPages.release()
  try await app.runService()
}

extension ServerConfiguration {
  /// `logLevel` as the logger takes it; an unknown name is `info`.
  var loggerLevel: Logger.Level { Logger.Level(rawValue: logLevel) ?? .info }
}
