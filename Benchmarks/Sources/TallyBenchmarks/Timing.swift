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
