import Foundation
import PropertyBased
import Testing

@testable import TallyImport

/// The hand-read ISO 8601 form against Foundation's formatter, which it stands in for.
@Suite struct ISOInstantParserTests {
  @Test func readsWhatFoundationReads() async {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    let input = zip(
      Gen.int(in: 0...253_402_300_799), Gen.int(in: -14 * 60...14 * 60), Gen.int(in: 0...999), Gen.bool())
    await propertyCheck(count: 2000, input: input) { seconds, offsetMinutes, millis, withColon in
      let instant = Date(timeIntervalSince1970: Double(seconds) + Double(millis) / 1000)
      formatter.timeZone = TimeZone(secondsFromGMT: offsetMinutes * 60)!
      var text = formatter.string(from: instant)
      if !withColon, text.hasSuffix("Z") == false {
        text.remove(at: text.index(text.endIndex, offsetBy: -3))
      }
      let read = ISOInstantParser().instant(text)
      #expect(read.map { abs($0.timeIntervalSince1970 - instant.timeIntervalSince1970) < 0.0005 } == true, "\(text)")
    }
  }

  @Test(arguments: ["2019-03-18T13:04:56Z", "2019-03-18T13:04:56.5+01:00", "2019-03-18T13:04:56-0730"])
  func readsTheFormsExportsWrite(_ text: String) {
    #expect(ISOInstantParser.common(Array(text.utf8)) != nil)
  }

  /// What the hand reading does not take is left to Foundation's formatter, as before it.
  @Test(arguments: ["2019-02-30T13:04:56Z", "2019-03-18T24:00:00Z", "2019-03-18 13:04:56Z", "2019-03-18T13:04:56.Z", "2019-03-18T13:04:56+1"])
  func leavesOtherFormsToFoundation(_ text: String) {
    #expect(ISOInstantParser.common(Array(text.utf8)) == nil)
  }

  @Test(arguments: ["yesterday", "2019-03-18", "2019-03-18T13:04:56", ""])
  func refusesWhatIsNoInstant(_ text: String) {
    #expect(ISOInstantParser().instant(text) == nil)
  }
}
