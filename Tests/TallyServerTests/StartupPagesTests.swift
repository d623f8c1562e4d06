import Foundation
import Testing

@testable import TallyServer

@Suite struct StartupPagesTests {
  @Test func onlyReadOnlyMappingsOfFilesAreAdvised() {
    let lines: [Substring] = [
      "55fac8050000-55facbb73000 r-xp 00969000 103:02 1234  /opt/tally/tally",
      "7fc645b9a000-7fc645bed000 r--p 00156000 103:02 99 /usr/lib/x86_64-linux-gnu/libc.so.6",
      "55facbcff000-55face311000 rw-p 03cad000 103:02 1234  /opt/tally/tally",
      "55face311000-55face4cd000 rw-p 00000000 00:00 0",
      "7ffd1c5f1000-7ffd1c5f3000 r-xp 00000000 00:00 0                          [vdso]",
      "7fc645b9a000-7fc645b9a000 r--p 00000000 103:02 99 /empty",
      "not a mapping",
    ]
    let ranges = lines.compactMap(ReadOnlyFileMapping.init).map { [$0.start, $0.end] }
    #expect(ranges == [[0x55fa_c805_0000, 0x55fa_cbb7_3000], [0x7fc6_45b9_a000, 0x7fc6_45be_d000]])
  }

  #if os(Linux)
    /// The test binary's code that ran before stands in for a server's start-up: once released,
    /// fewer of the process's file pages are resident.
    @Test func releasingHandsFilePagesBack() throws {
      let before = try residentKiB("RssFile")
      #expect(StartupPages.release() > 0)
      let after = try residentKiB("RssFile")
      #expect(after < before, "RssFile \(before) kB before, \(after) kB after")
    }
  #endif
}
