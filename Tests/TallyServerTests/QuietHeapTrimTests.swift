import Foundation
import TallyHeap
import Testing

@testable import TallyServer

@Suite struct QuietHeapTrimTests {
  /// Looks 250 ms apart; the process's CPU time at each, in milliseconds.
  @Test func trimsOnceAtTheFirstQuietLookAfterWork() {
    var watch = QuietWatch(look: .milliseconds(250))
    let cpu = [40, 40.1, 40.2, 140, 380, 381, 381.5, 382, 390, 390, 390]
    let trims = cpu.map { watch.shouldTrim(cpuTime: .milliseconds($0)) }
    #expect(trims == [false, true, false, false, false, true, false, false, false, true, false])
  }

  @Test func aBusyProcessIsLeftAlone() {
    var watch = QuietWatch(look: .milliseconds(250))
    #expect((1...50).map { watch.shouldTrim(cpuTime: .milliseconds($0 * 30)) }.allSatisfy { !$0 })
  }

  #if os(Linux)
    /// The clock the watch reads is the kernel's count of this process's CPU time, in its units.
    @Test func theProcessCPUTimeIsTheKernels() {
      var usage = rusage()
      getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
      let ours = processCPUTime()
      let kernels =
        Duration.seconds(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + .microseconds(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
      #expect(kernels > .zero)
      #expect(ours - kernels < .milliseconds(100) && kernels - ours < .milliseconds(100), "\(ours), \(kernels)")
    }

    /// What a burst freed, held by glibc until trimmed, leaves the process's resident memory.
    /// Measured from before the blocks are freed, so a trim by a server another test runs
    /// cannot make it fail.
    @Test func trimmingGivesFreedHeapBack() throws {
      let blocks = (0..<32_768).map { _ in UnsafeMutableRawPointer.allocate(byteCount: 1024, alignment: 16) }
      let allocated = try residentKiB("RssAnon")
      // The last stays, so the freed ones lie below an arena's top, which glibc never trims alone.
      blocks.dropLast().forEach { $0.deallocate() }
      tally_heap_trim()
      let trimmed = try residentKiB("RssAnon")
      blocks.last?.deallocate()
      #expect(allocated - trimmed >= 16 * 1024, "RssAnon \(allocated) kB allocated, \(trimmed) kB trimmed")
    }

    /// After an import glibc kept up to 37 MiB of a thread arena's free top, which no trim
    /// gives back: each freed mapped block raises the size below which blocks come from arenas,
    /// up to 32 MiB, and the top an arena keeps to twice that. Bounded, a large block after a
    /// larger one is still mapped on its own, so freeing it takes it out of resident memory at
    /// once.
    ///
    /// A block also comes from an arena, bounded or not, whenever one of its free chunks fits:
    /// this thread's arena may hold such chunks that other tests freed, and a block carved from
    /// one stays resident when freed (it once failed so, 79 s into a whole run). Those chunks
    /// are taken first, so only the threshold decides; unbounded, no block is ever mapped.
    @Test func largeBlocksGoBackAtOnceOnceBounded() throws {
      #expect(tally_heap_bound_arena_tops() == 1)
      let larger = UnsafeMutableRawPointer.allocate(byteCount: 30 << 20, alignment: 16)
      larger.initializeMemory(as: UInt8.self, repeating: 1, count: 30 << 20)
      larger.deallocate()
      var carved: [UnsafeMutableRawPointer] = []
      defer { carved.forEach { $0.deallocate() } }
      var large = UnsafeMutableRawPointer.allocate(byteCount: 20 << 20, alignment: 16)
      while tally_heap_is_mapped(large) == 0, carved.count < 16 {
        carved.append(large)
        large = UnsafeMutableRawPointer.allocate(byteCount: 20 << 20, alignment: 16)
      }
      #expect(tally_heap_is_mapped(large) == 1, "after \(carved.count) blocks from the arena")
      large.initializeMemory(as: UInt8.self, repeating: 1, count: 20 << 20)
      let allocated = try residentKiB("RssAnon")
      large.deallocate()
      let freed = try residentKiB("RssAnon")
      #expect(allocated - freed >= 16 * 1024, "RssAnon \(allocated) kB allocated, \(freed) kB freed")
    }
  #endif
}
