import Foundation
import PropertyBased
import TallyCore
import TallySync
import Testing

/// The hand reader must read what `Codable` reads, to the same values, and refuse what it refuses.
@Suite struct SyncJSONReaderTests {
  @Test func readsHandWrittenPagesBackAsTheSameChanges() async throws {
    let (picks, numbers, shapes) = SamplePages.input
    await propertyCheck(count: 200, input: picks, numbers, shapes) { pick, number, shape in
      let page = SamplePages.page(pick: pick, number: number, shape: shape)
      let read = try SyncJSONReader.pull(Array(SyncJSONText.pull(page).utf8))
      #expect(read == page)
    }
  }

  @Test(arguments: [
    #"{"a": [1, -0, 3.0, 1e2, 2.5E-1, -7.25, 12345678901234567890, 9223372036854775807, true, false, null]}"#,
    // One past each end of Int64: the first rounds, as a Double, to Int64's smallest.
    #"[-9223372036854775808, -9223372036854775809, 9223372036854775808]"#,
    #" "esc \" \\ \/ \b \f \n \r \t \u00e9 \ud83d\udcda \u0000" "#,
    #"{"a": "first wins", "c": [], "a": {"b": {}}}"#,
    #"["émoji 📚", "日本", ""]"#,
  ])
  func readsValuesAsCodableDoes(_ text: String) throws {
    let expected = try JSONDecoder().decode(SyncValue.self, from: Data(text.utf8))
    #expect(try SyncJSONReader.value(Array(text.utf8)) == expected)
  }

  @Test(arguments: [
    "", "01", "1.", "-", ".5", "[1 2]", #"{"a"}"#, #""\x""#, "tru", #""open"#, "1 2",
    #""\ud800""#, "[", "{", "\"tab\there\"", "nul",
  ])
  func refusesWhatCodableRefuses(_ text: String) {
    #expect((try? JSONDecoder().decode(SyncValue.self, from: Data(text.utf8))) == nil)
    #expect((try? SyncJSONReader.value(Array(text.utf8))) == nil)
  }

  /// A repeated key keeps its first value in a change as anywhere else; a page that is not a
  /// page is refused.
  @Test func readsAPageAsCodableReadsIt() throws {
    let stamp = HybridStamp(milliseconds: 1, counter: 0, device: SyncEntityTests.devices[0]).text
    let text = #"""
      {"changes":[{"id":"a/2026-01-01","kind":"entry","fields":null,"fields":{"status":"done"},
      "stamp":"\#(stamp)","id":"b","deleted":false}],"more":true,"cursor":"c","changes":[]}
      """#
    let codable = try JSONDecoder().decode(SyncPullResponse.self, from: Data(text.utf8))
    #expect(try SyncJSONReader.pull(Array(text.utf8)) == codable)
    #expect(codable.changes.first?.fields == [:])
    for bad in ["[]", #"{"changes":{},"more":true,"cursor":"c"}"#, #"{"changes":[1],"more":true,"cursor":"c"}"#,
      #"{"changes":[],"more":true,"cursor":"c"} x"#, #"{"changes":[],"cursor":"c"}"#]
    {
      #expect((try? JSONDecoder().decode(SyncPullResponse.self, from: Data(bad.utf8))) == nil)
      #expect((try? SyncJSONReader.pull(Array(bad.utf8))) == nil)
    }
  }

  /// Stricter than `JSONDecoder` here: JSON has no trailing commas, and Tally writes none.
  @Test(arguments: ["[1,]", #"{"a":1,}"#])
  func refusesTrailingCommas(_ text: String) {
    #expect((try? SyncJSONReader.value(Array(text.utf8))) == nil)
  }

  @Test func refusesAChangeWithAFieldItDoesNotHave() {
    let stamp = HybridStamp(milliseconds: 1, counter: 0, device: SyncEntityTests.devices[0]).text
    let good = #"{"kind":"entry","id":"x","stamp":"\#(stamp)","fields":{"status":null,"note":null}}"#
    let bad = #"{"kind":"entry","id":"x","stamp":"\#(stamp)","feilds":{}}"#
    for text in [good, bad, #"{"kind":"nope","id":"x","stamp":"\#(stamp)"}"#, #"{"kind":"entry","id":"x","stamp":"1"}"#] {
      let codable = try? JSONDecoder().decode(SyncChange.self, from: Data(text.utf8))
      let read = try? SyncJSONReader.change(SyncJSONReader.value(Array(text.utf8)))
      #expect(codable == read)
      // A pull's changes are read straight from the text, with the same checks.
      let page = #"{"more":false,"changes":[\#(text)],"cursor":"c"}"#
      #expect((try? SyncJSONReader.pull(Array(page.utf8)))?.changes == read.map { [$0] })
    }
    #expect((try? SyncJSONReader.change(SyncJSONReader.value(Array(good.utf8)))) != nil)
  }
}

@Suite struct WholeNumberRefusalTests {
  /// A number past 64 bits, at the top or nested, is refused naming its path, whichever reader
  /// read the push (the server's Codable one, or the fast one), though it rounds onto Int64.min.
  @Test func aNumberBeyond64BitsIsRefusedByItsPath() throws {
    let stamp = HybridStamp(milliseconds: 1, counter: 0, device: SyncEntityTests.devices[0]).text
    let id = "0e000000-0000-4000-8000-000000000001"
    let cases = [
      (#"{"sortOrder":-9223372036854775809}"#, "fields.sortOrder"),
      (#"{"frequency":{"type":"weekly","targetPerWeek":9223372036854775808}}"#, "fields.frequency.targetPerWeek"),
    ]
    for (fields, path) in cases {
      let text = #"{"kind":"habit","id":"\#(id)","stamp":"\#(stamp)","fields":\#(fields)}"#
      let codable = try JSONDecoder().decode(SyncChange.self, from: Data(text.utf8))
      let read = try SyncJSONReader.change(SyncJSONReader.value(Array(text.utf8)))
      for change in [codable, read] {
        #expect(throws: ValidationError.self) { try SyncBatchRules.checkShape(change) }
        do {
          try SyncBatchRules.checkShape(change)
        } catch {
          #expect(error.field == path)
        }
      }
    }
    let fine = #"{"kind":"habit","id":"\#(id)","stamp":"\#(stamp)","fields":{"sortOrder":-9223372036854775808}}"#
    try SyncBatchRules.checkShape(try JSONDecoder().decode(SyncChange.self, from: Data(fine.utf8)))
  }
}
