import Foundation
import PropertyBased
import TallySync
import Testing

/// The merge rule against the obvious reference: after any set of changes in any order, with
/// repeats, each field holds the value of the change with the greatest stamp that names it (of
/// a kind whose fields change together, the entity is that change's fields), and an entity of
/// a final kind that was ever deleted is deleted.
@Suite struct SyncEntityTests {
  static let devices = (1...3).map { UUID(uuidString: "00000000-0000-4000-8000-00000000000\($0)")! }
  static let fields = ["name", "color", "archived"]

  /// A change made from three small numbers: time, device and which fields (or a deletion).
  static func change(_ code: Int, kind: SyncKind) -> SyncChange {
    let ms = Int64(code % 50)
    let device = devices[(code / 50) % 3]
    let pick = (code / 150) % 9
    let stamp = HybridStamp(milliseconds: ms, counter: (code / 1_350) % 2, device: device)
    if pick == 8, kind.deletionIsFinal {
      return SyncChange(kind: kind, id: "x", stamp: stamp, deleted: true)
    }
    var chosen: [String: SyncValue] = [:]
    for (index, name) in fields.enumerated() where (pick + 1) & (1 << index) != 0 || chosen.isEmpty && index == 2 {
      chosen[name] = .string("\(name) \(code)")
    }
    return SyncChange(kind: kind, id: "x", stamp: stamp, fields: chosen)
  }

  static func reference(_ changes: [SyncChange], kind: SyncKind) -> SyncEntity {
    if kind.deletionIsFinal, let deletion = changes.filter(\.deleted).map(\.stamp).min() {
      return SyncEntity(deleted: deletion)
    }
    if kind.changesWhole {
      guard let winner = changes.max(by: { $0.stamp < $1.stamp }) else { return SyncEntity() }
      return SyncEntity(fields: winner.fields, stamps: winner.fields.mapValues { _ in winner.stamp })
    }
    var entity = SyncEntity()
    for name in fields {
      // Two changes with one stamp come from one event, which set one value: any is right.
      guard let winner = changes.filter({ !$0.deleted && $0.fields[name] != nil }).max(by: { $0.stamp < $1.stamp })
      else { continue }
      entity.fields[name] = winner.fields[name]
      entity.stamps[name] = winner.stamp
    }
    return entity
  }

  @Test(arguments: [SyncKind.habit, .settings, .entry])
  func anyOrderWithRepeatsEndsAtTheReference(_ kind: SyncKind) async {
    await propertyCheck(count: 400, input: Gen.int(in: 0..<2_700).array(of: 0...12), Gen.int(in: 0..<1_000)) { codes, seed in
      // Unique stamps per (stamp) so one event never sets two values.
      var byStamp: [HybridStamp: SyncChange] = [:]
      for code in codes {
        let change = Self.change(code, kind: kind)
        byStamp[change.stamp] = byStamp[change.stamp] ?? change
      }
      let changes = Array(byStamp.values)
      var generator = Xorshift(seed: UInt64(seed) + 1)
      let shuffled = (changes + changes.prefix(3)).shuffled(using: &generator)
      var entity = SyncEntity()
      for change in shuffled { _ = entity.merge(change) }
      var expected = Self.reference(changes, kind: kind)
      if kind.deletionIsFinal, entity.deleted != nil {
        // The deletion that arrived first stays; which one that was is order's business.
        expected.deleted = entity.deleted
      }
      #expect(entity == expected)
    }
  }

  @Test func aReplayedChangeIsUnchangedAndALaterFieldWins() {
    let early = SyncChange(kind: .habit, id: "x", stamp: HybridStamp(milliseconds: 1, counter: 0, device: Self.devices[0]), fields: ["name": .string("Read")])
    let late = SyncChange(kind: .habit, id: "x", stamp: HybridStamp(milliseconds: 2, counter: 0, device: Self.devices[1]), fields: ["name": .string("Walk")])
    var entity = SyncEntity()
    #expect(entity.merge(late) == .applied)
    #expect(entity.merge(early) == .unchanged)
    #expect(entity.merge(late) == .unchanged)
    #expect(entity.fields["name"] == .string("Walk"))
  }

  @Test func aLaterEntryReplacesTheDayWholeEvenWhereItNamesFewerFields() {
    let stamp = { (ms: Int64) in HybridStamp(milliseconds: ms, counter: 0, device: Self.devices[0]) }
    var day = SyncEntity()
    let measured: [String: SyncValue] = ["status": .string("done"), "note": .null, "amount": .int(12)]
    #expect(day.merge(SyncChange(kind: .entry, id: "h/2026-03-08", stamp: stamp(1), fields: measured)) == .applied)
    // An older client knows no amount: its later "done" is the whole day, with no amount.
    let older: [String: SyncValue] = ["status": .string("done"), "note": .string("ran")]
    #expect(day.merge(SyncChange(kind: .entry, id: "h/2026-03-08", stamp: stamp(2), fields: older)) == .applied)
    #expect(day.fields == older)
    #expect(Set(day.stamps.values) == [stamp(2)])
    #expect(day.merge(SyncChange(kind: .entry, id: "h/2026-03-08", stamp: stamp(1), fields: measured)) == .unchanged)
  }

  @Test func changesToADeletedHabitAreDroppedButAJournalTextIsAValue() {
    let stamp = { (ms: Int64) in HybridStamp(milliseconds: ms, counter: 0, device: Self.devices[0]) }
    var habit = SyncEntity()
    _ = habit.merge(SyncChange(kind: .habit, id: "x", stamp: stamp(1), deleted: true))
    #expect(habit.merge(SyncChange(kind: .habit, id: "x", stamp: stamp(9), fields: ["name": .string("Back")])) == .dropped)
    var journal = SyncEntity()
    _ = journal.merge(SyncChange(kind: .journal, id: "2026-03-08", stamp: stamp(1), fields: ["text": .null]))
    #expect(journal.merge(SyncChange(kind: .journal, id: "2026-03-08", stamp: stamp(2), fields: ["text": .string("Again")])) == .applied)
  }

  @Test func anEntityBecomesTheChangesThatMakeItAgain() {
    let a = HybridStamp(milliseconds: 1, counter: 0, device: Self.devices[0])
    let b = HybridStamp(milliseconds: 2, counter: 0, device: Self.devices[1])
    var entity = SyncEntity()
    _ = entity.merge(SyncChange(kind: .habit, id: "x", stamp: a, fields: ["name": .string("Read"), "color": .string("#FFF")]))
    _ = entity.merge(SyncChange(kind: .habit, id: "x", stamp: b, fields: ["name": .string("Walk")]))
    let changes = entity.changes(kind: .habit, id: "x")
    #expect(changes.map(\.stamp) == [a, b])
    var rebuilt = SyncEntity()
    for change in changes.reversed() { _ = rebuilt.merge(change) }
    #expect(rebuilt == entity)
  }
}

/// A seeded generator, so a shuffle is part of the property's input.
struct Xorshift: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state ^= state << 13
    state ^= state >> 7
    state ^= state << 17
    return state
  }

  /// A UUID of 16 random bytes (not a well-formed version 4 one: readers must not care).
  mutating func uuid() -> UUID {
    var uuid = UUID().uuid
    withUnsafeMutableBytes(of: &uuid) { bytes in
      for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255, using: &self) }
    }
    return UUID(uuid: uuid)
  }
}

/// Pull pages of every value shape, with text that needs escaping: what both JSON readers
/// must read back as written.
enum SamplePages {
  static let texts = ["plain", "quote \" backslash \\ slash /", "line\nbreak\ttab\r", "\u{01}\u{1F}", "émoji 📚 日本"]
  static let input = (Gen.int(in: 0..<texts.count), Gen.int(in: -5_000_000...5_000_000), Gen.int(in: 0...3))

  static func page(pick: Int, number: Int, shape: Int) -> SyncPullResponse {
    let value: SyncValue =
      switch shape {
      case 0: .string(texts[pick])
      case 1: .int(Int64(number))
      case 2: .object(["a": .array([.bool(number % 2 == 0), .null, .string(texts[pick])])])
      // Whole doubles read back as integers, as from any JSON; models read either.
      default: .double(Double(number) + 0.5)
      }
    let change = SyncChange(
      kind: .habit, id: "id \(texts[pick])",
      stamp: HybridStamp(milliseconds: Int64(abs(number)), counter: pick, device: SyncEntityTests.devices[0]),
      fields: ["name": value, "icon": .null])
    return SyncPullResponse(
      changes: [change, SyncChange(kind: .chat, id: "c", stamp: change.stamp, deleted: true)], cursor: "1:a:b",
      more: number > 0)
  }
}

@Suite struct SyncJSONTextTests {
  @Test func handWrittenJSONReadsBackAsTheSameChanges() async throws {
    let (picks, numbers, shapes) = SamplePages.input
    await propertyCheck(count: 200, input: picks, numbers, shapes) { pick, number, shape in
      let page = SamplePages.page(pick: pick, number: number, shape: shape)
      let decoded = try JSONDecoder().decode(SyncPullResponse.self, from: Data(SyncJSONText.pull(page).utf8))
      #expect(decoded == page)
    }
  }
}
