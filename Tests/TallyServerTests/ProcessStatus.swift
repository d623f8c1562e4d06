import Foundation
import Testing

#if os(Linux)
  /// One of this process's memory figures from `/proc/self/status`, in KiB: `RssFile`, `RssAnon`…
  func residentKiB(_ field: String) throws -> Int {
    let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("\(field):") })
    return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
  }
#endif
