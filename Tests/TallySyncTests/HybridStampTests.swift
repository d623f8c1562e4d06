import Foundation
import PropertyBased
import TallySync
import Testing

@Suite struct HybridStampTests {
  let device = UUID(uuidString: "00000000-0000-4000-8000-000000000001")!

  @Test func textRoundTripsAndSortsAsTheStamp() async {
    await propertyCheck(input: Gen.int64(in: 0...HybridStamp.maxMilliseconds), Gen.int(in: 0...HybridStamp.maxCounter)) { ms, counter in
      let stamp = HybridStamp(milliseconds: ms, counter: counter, device: device)
      #expect(HybridStamp(stamp.text) == stamp)
      let later = HybridStamp(milliseconds: ms, counter: counter, device: UUID(uuidString: "00000000-0000-4000-8000-000000000002")!)
      #expect(stamp < later)
      #expect(stamp.text < later.text)
    }
  }

  @Test(arguments: [
    "", "12-00000000-00000000-0000-4000-8000-000000000001",
    "0000000000000001-0000000G-00000000-0000-4000-8000-000000000001",
    "0000000000000001-0000000A-00000000-0000-4000-8000-000000000001",
    "0000000000000001-00000000-00000000-0000-4000-8000-00000000000A",
    "000000000000000x-00000000-00000000-0000-4000-8000-000000000001",
    "0000000000000001-00000000-not-a-uuid",
  ])
  func malformedStampsAreRefused(_ text: String) {
    #expect(HybridStamp(text) == nil)
  }

  /// The clock's promise: a tick is later than every stamp seen and than the wall clock, and
  /// a device whose wall clock lags still moves forward.
  @Test func ticksAreLaterThanEverythingSeen() async {
    await propertyCheck(
      input: Gen.int64(in: 0...4_000_000_000_000), Gen.int64(in: 0...4_000_000_000_000), Gen.int(in: 0...HybridStamp.maxCounter)
    ) { seenMs, wallMs, counter in
      let seen = HybridStamp(milliseconds: seenMs, counter: counter, device: UUID())
      let now = Date(timeIntervalSince1970: Double(wallMs) / 1000)
      let tick = HybridClock.tick(latest: seen, now: now, device: device)
      #expect(tick > seen || (tick.milliseconds, tick.counter) > (seen.milliseconds, seen.counter))
      #expect(tick.milliseconds >= min(wallMs, HybridStamp.maxMilliseconds))
      let next = HybridClock.tick(latest: tick, now: now, device: device)
      #expect(next > tick)
    }
  }

  @Test func seenKeepsTheLatest() {
    let a = HybridStamp(milliseconds: 5, counter: 0, device: device)
    let b = HybridStamp(milliseconds: 7, counter: 0, device: device)
    #expect(HybridClock.seen(a, latest: b) == b)
    #expect(HybridClock.seen(b, latest: a) == b)
    #expect(HybridClock.seen(a, latest: nil) == a)
  }
}
