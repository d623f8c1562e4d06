import Logging
import ServiceLifecycle
import TallyHTTP
import TallyStore

/// What keeps live streams (docs/sync.md "Live changes") honest between commits: while any
/// is open, it looks for commits no announcement reported (``RevisionRepository/catchUp()``)
/// every ``LiveSettings/catchUp``, and wakes every stream to send a heartbeat every
/// ``LiveSettings/heartbeat``.
public struct LiveTicks: Service {
  let store: any RevisionRepository
  let settings: LiveSettings
  let logger: Logger

  public init(store: any RevisionRepository, settings: LiveSettings, logger: Logger) {
    self.store = store
    self.settings = settings
    self.logger = logger
  }

  /// Returns when the server shuts down.
  public func run() async {
    await cancelWhenGracefulShutdown { await tick() }
  }

  private func tick() async {
    let clock = ContinuousClock()
    var lastBeat = clock.now
    while true {
      do {
        try await Task.sleep(for: settings.catchUp)
      } catch {
        return
      }
      guard store.feedHeads.waiting > 0 else {
        lastBeat = clock.now
        continue
      }
      do {
        try await store.catchUp()
      } catch {
        logger.warning("Could not look for commits made elsewhere: \(error)")
      }
      if clock.now - lastBeat >= settings.heartbeat {
        lastBeat = clock.now
        store.feedHeads.wakeAll()
      }
    }
  }
}
