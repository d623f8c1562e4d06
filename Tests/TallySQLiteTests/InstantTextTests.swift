import Foundation
import TallyStore
import Testing

@Suite struct InstantTextTests {
  @Test func textIsUTCWithMilliseconds() {
    #expect(InstantText.text(instant(ms: 0)) == "1970-01-01T00:00:00.000Z")
    #expect(InstantText.text(instant(ms: 1_772_958_600_123)) == "2026-03-08T08:30:00.123Z")
    #expect(InstantText.text(instant(ms: -1)) == "1969-12-31T23:59:59.999Z")
    #expect(InstantText.text(instant(ms: 951_782_400_000)) == "2000-02-29T00:00:00.000Z")
  }

  @Test func textReadsBackToTheSameInstant() {
    for ms: Int64 in [0, -1, 1, 999, 1_772_958_600_123, -86_400_000, 253_402_300_799_999] {
      let date = instant(ms: ms)
      #expect(InstantText.date(InstantText.text(date)) == date)
    }
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<1000 {
      let date = Date(timeIntervalSince1970: Double.random(in: -2e9...4e9, using: &generator))
      let stored = InstantText.date(InstantText.text(date))
      #expect(stored == StoredInstant.normalized(date))
      #expect(stored.map(InstantText.text) == InstantText.text(date))
    }
  }

  @Test func textOrderIsTimeOrder() {
    let dates = (0..<200).map { _ in instant(ms: Int64.random(in: 0...253_402_300_799_999)) }
    #expect(dates.sorted().map(InstantText.text) == dates.map(InstantText.text).sorted())
  }

  @Test func malformedTextIsRejected() {
    for text in ["", "2026-03-08", "2026-03-08T08:30:00Z", "2026-03-08T24:00:00.000Z",
                 "2026-02-30T08:30:00.000Z", "2026-03-08 08:30:00.000Z", "2026-03-08T08:30:00.12xZ"] {
      #expect(InstantText.date(text) == nil, "\(text)")
    }
  }
}
