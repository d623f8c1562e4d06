import ServiceLifecycle
import TallyHeap

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// glibc keeps what a burst of requests freed in the arenas of the threads that served it, for
/// the next burst, and gives back on its own only what lies at an arena's top: after a sign-in
/// and a habit list an idle server held 2.5 MiB of free heap (docs/server.md, "Memory"). So
/// after the process has worked, the first look that finds it quiet gives the free pages back.
/// A busy server is never quiet at a look, so it is left alone.
public struct QuietHeapTrim: Service {
  let look = Duration.milliseconds(250)

  public init() {}

  /// Returns when the server shuts down.
  public func run() async {
    await cancelWhenGracefulShutdown {
      var watch = QuietWatch(look: look)
      while (try? await Task.sleep(for: look)) != nil {
        if watch.shouldTrim(cpuTime: processCPUTime()) { tally_heap_trim() }
      }
    }
  }
}

/// The CPU time every thread of this process has used (POSIX counts `clock()` in microseconds).
func processCPUTime() -> Duration {
  .microseconds(clock())
}

/// When to trim: at the first quiet look after a busy one. A look is busy when the process
/// used more than 2% of it on the CPU; idle, a server's timers use a few microseconds. The
/// first look counts as busy, so start-up's garbage goes too.
struct QuietWatch {
  let busy: Duration
  private var last: Duration?
  private var worked = true

  init(look: Duration) {
    busy = look / 50
  }

  mutating func shouldTrim(cpuTime: Duration) -> Bool {
    defer { last = cpuTime }
    guard let last, cpuTime - last < busy else {
      worked = true
      return false
    }
    defer { worked = false }
    return worked
  }
}
