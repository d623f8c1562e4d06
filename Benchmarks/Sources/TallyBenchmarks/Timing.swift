import Foundation

/// The best of `repetitions` timings of `body`, in seconds: the least disturbed run.
func best(_ repetitions: Int, _ body: () -> Void) -> Double {
  var fastest = Double.infinity
  for _ in 0..<repetitions {
    fastest = min(fastest, ContinuousClock().measure(body).seconds)
  }
  return fastest
}

func format(_ seconds: Double) -> String {
  switch seconds {
  case ..<1e-3: String(format: "%8.2f µs", seconds * 1e6)
  case ..<1: String(format: "%8.2f ms", seconds * 1e3)
  default: String(format: "%8.2f s ", seconds)
  }
}

extension Duration {
  var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}

/// CPU seconds (user and system) this process has used: steadier than wall time on a machine
/// shared with builds, and it tells a client's work from its server's.
func processCPUSeconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// CPU seconds another process has used, from `/proc/PID/stat` (Linux; `nil` elsewhere).
func processCPUSeconds(pid: Int32) -> Double? {
  guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
    let close = stat.lastIndex(of: ")")
  else { return nil }
  // Fields after the command's name, which may hold spaces: utime and stime are the 12th and 13th.
  let fields = stat[stat.index(after: close)...].split(separator: " ")
  guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
  return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}
