import Foundation
import PropertyBased
import TallyCore
import TallyStore
import TallySync
import Testing

/// Ids are read as bytes on the hot path; these hold them to the written forms, against
/// `UUID(uuidString:)` and `Day`'s own parser as the slow obvious reference.
@Suite struct SyncIDTests {
  @Test func anEntryIdReadsBackAsItsHabitAndDay() async {
    await propertyCheck(input: Gen.int(in: 0..<200_000), Gen.int(in: 0..<1_000)) { offset, seed throws in
      var generator = Xorshift(seed: UInt64(seed) + 1)
      let habit = generator.uuid()
      let day = Day(year: 1900, month: 1, day: 1)!.adding(days: offset)
      let id = SyncID.entry(habit, day)
      #expect(try SyncID(SyncKey(kind: .entry, id: id)) == .entry(habit: habit, day: day))
      #expect(try SyncID(SyncKey(kind: .habit, id: habit.storeText)) == .habit(habit))
    }
  }

  @Test(arguments: [
    "0f1c2d3e-aaaa-4bbb-8ccc-0123456789AB/2026-11-21",  // upper case
    "0f1c2d3e-aaaa-4bbb-8ccc-0123456789ab-2026-11-21",  // no slash
    "0f1c2d3e-aaaa-4bbb-8ccc-0123456789ab/2025-02-29",  // not a day
    "0f1c2d3e-aaaa-4bbb-8ccc-0123456789ab/2026-11-21/",
    "0f1c2d3eaaaa-4bbb-8ccc-0123456789ab0/2026-11-21",  // hyphen misplaced
    "0f1c2d3e-aaaa-4bbb-8ccc-0123456789ag/2026-11-21",
    "0f1c2d3e-aaaa-4bbb-8ccc-0123456789ab/2026-1-211",
  ])
  func aMalformedEntryIdIsRefusedNamingTheForm(_ id: String) {
    #expect(throws: ValidationError.self) { try SyncID(SyncKey(kind: .entry, id: id)) }
    do {
      _ = try SyncID(SyncKey(kind: .entry, id: id))
    } catch {
      #expect("\(error)".contains("habit UUID/YYYY-MM-DD"))
    }
  }

  @Test func kindsAreAppliedInTheOrderTheyAreDeclared() {
    #expect(SyncKind.allCases.sorted() == SyncKind.allCases)
    #expect(SyncKind.allCases.filter(\.hasChildren) == SyncKind.allCases.filter { kind in
      SyncKind.allCases.contains { $0.parent == kind }
    })
  }
}
