import Metrics
import Prometheus

/// The process's metrics, in Prometheus' registry: request counts and durations from
/// Hummingbird's `MetricsMiddleware`, served at `/metrics`.
public enum ServerMetrics {
  /// Points swift-metrics at a new registry. Call once per process (the metrics system
  /// refuses a second bootstrap), before ``buildApplication(_:metrics:clock:onServerRunning:)``.
  public static func bootstrap() -> PrometheusCollectorRegistry {
    let registry = PrometheusCollectorRegistry()
    MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
    return registry
  }
}
