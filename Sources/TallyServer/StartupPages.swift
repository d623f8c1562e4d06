import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Most of an idle server's resident memory was code it ran once: argument parsing, the
/// migrations check, template parsing, the relocations the loader applied (docs/server.md,
/// "Memory"). Those pages are clean copies of the binary and its libraries, so once the server
/// is built, before it listens, they are handed back (`MADV_PAGEOUT`); what serving needs
/// faults in again from the file. Pages another process also maps are left alone by the
/// kernel, and pages the loader wrote are anonymous and stay.
public enum StartupPages {
  /// `MADV_PAGEOUT` (Linux 5.4): not every Glibc module exports the name.
  private static let pageOut: Int32 = 21

  /// Advises every read-only, file-backed mapping of this process; returns how many there
  /// were. Nothing happens where the kernel does not know the advice.
  @discardableResult
  public static func release() -> Int {
    #if os(Linux)
      guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else { return 0 }
      var advised = 0
      for mapping in maps.split(separator: "\n").compactMap(ReadOnlyFileMapping.init) {
        guard let start = UnsafeMutableRawPointer(bitPattern: mapping.start) else { continue }
        if madvise(start, Int(mapping.end - mapping.start), pageOut) == 0 { advised += 1 }
      }
      return advised
    #else
      return 0
    #endif
  }
}

/// One line of `/proc/self/maps` that maps a file without write access:
/// `start-end perms offset device inode /path`.
struct ReadOnlyFileMapping {
  let start: UInt
  let end: UInt

  init?(_ line: Substring) {
    let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
    // The path is padded to a column; the last field keeps that padding.
    guard fields.count == 6, fields[5].drop(while: { $0 == " " }).hasPrefix("/"), !fields[1].contains("w") else {
      return nil
    }
    let bounds = fields[0].split(separator: "-")
    guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16), start < end
    else { return nil }
    self.start = start
    self.end = end
  }
}
