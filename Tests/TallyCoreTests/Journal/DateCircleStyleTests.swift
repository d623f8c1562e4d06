import Foundation
import TallyCore
import Testing

@Suite struct DateCircleStyleTests {
  typealias F = JournalFixtures

  static let allFlagCombinations: [[Bool]] = (0..<64).map { bits in
    (0..<6).map { bits & (1 << $0) != 0 }
  }

  /// SPEC 5's layer rules, read straight off the contract for each of the 64 combinations.
  @Test(arguments: allFlagCombinations)
  func layersFollowTheRules(flags: [Bool]) {
    let (isToday, isFuture, isSelected, hasEntry, hasChat, showGridDates) =
      (flags[0], flags[1], flags[2], flags[3], flags[4], flags[5])
    let style = DateCircleStyle(
      isToday: isToday, isFuture: isFuture, isSelected: isSelected, hasEntry: hasEntry,
      hasChat: hasChat, showGridDates: showGridDates)
    let future = isFuture
    let today = isToday && !isFuture

    #expect(style.hitArea.diameter == 22)
    #expect(style.hitArea.color == .white(opacity: 0.01))

    if isSelected {
      #expect(style.ring?.color == .hex(HexColor(red: 0x44, green: 0xC0, blue: 0xFF)))
    } else if today {
      #expect(style.ring?.color == .grey(opacity: 0.8))
    } else {
      #expect(style.ring == nil)
    }
    if let ring = style.ring {
      #expect(ring.diameter == 22 && ring.lineWidth == 2)
    }

    #expect(style.base.diameter == (future ? 8 : 18))
    #expect(style.base.color == .grey(opacity: 0.15))

    #expect((style.entryFill != nil) == hasEntry)
    if let fill = style.entryFill {
      #expect(fill.diameter == 18)
      #expect(fill.color == .hex(HexColor(red: 0x33, green: 0x3B, blue: 0x40)))
    }

    #expect((style.chatDot != nil) == (hasChat && !hasEntry && !future))
    if let dot = style.chatDot {
      #expect(dot.diameter == 8)
      #expect(dot.color == .hex(HexColor(red: 0x33, green: 0x3B, blue: 0x40)))
    }

    #expect((style.dayNumber != nil) == (today || showGridDates))
    if let number = style.dayNumber {
      #expect(number.fontSize == 8)
      #expect(number.weight == .medium)
      let expected: SemanticColor = hasEntry ? .white(opacity: 1) : future ? .secondary : .primary
      #expect(number.color == expected)
    }
  }

  @Test func designTableExamples() {
    func style(_ tense: DayTense, selected: Bool = false, entry: Bool = false, chat: Bool = false) -> DateCircleStyle {
      DateCircleStyle(tense: tense, isSelected: selected, hasEntry: entry, hasChat: chat, showGridDates: false)
    }
    // Empty past day: a grey 18-point circle and nothing else.
    let past = style(.past)
    #expect(past.ring == nil && past.entryFill == nil && past.chatDot == nil && past.dayNumber == nil)
    // Past day with chat: the dark dot.
    #expect(style(.past, chat: true).chatDot?.diameter == 8)
    // Past day with an entry: the dark fill, and the dot gives way to it.
    #expect(style(.past, entry: true, chat: true).chatDot == nil)
    #expect(style(.past, entry: true, chat: true).entryFill?.diameter == 18)
    // Today: grey ring and its number; selecting it turns the ring blue.
    #expect(style(.today).ring?.color == .grey(opacity: 0.8))
    #expect(style(.today).dayNumber?.color == .primary)
    #expect(style(.today, selected: true).ring?.color == .hex(.selection))
    // Future: small, muted, no chat dot even with chat.
    #expect(style(.future).base.diameter == 8)
    #expect(style(.future, chat: true).chatDot == nil)
    // An entry's white number wins over the future's muted one.
    let futureEntry = DateCircleStyle(tense: .future, isSelected: false, hasEntry: true, hasChat: false, showGridDates: true)
    #expect(futureEntry.dayNumber?.color == .white(opacity: 1))
    #expect(futureEntry.base.diameter == 8)
    #expect(futureEntry.entryFill?.diameter == 18)
  }

  @Test func contradictoryFlagsResolveToFuture() {
    #expect(DayTense(isToday: true, isFuture: true) == .future)
    #expect(DayTense(isToday: true, isFuture: false) == .today)
    #expect(DayTense(isToday: false, isFuture: false) == .past)
    #expect(DayTense(F.day("2026-03-07"), today: F.day("2026-03-08")) == .past)
    #expect(DayTense(F.day("2026-03-08"), today: F.day("2026-03-08")) == .today)
    #expect(DayTense(F.day("2026-03-09"), today: F.day("2026-03-08")) == .future)
  }

  @Test func wireShape() throws {
    let style = DateCircleStyle(tense: .today, isSelected: true, hasEntry: false, hasChat: true, showGridDates: false)
    #expect(
      try F.json(style) == """
        {"base":{"color":{"kind":"grey","opacity":0.15},"diameter":18},\
        "chatDot":{"color":{"hex":"#333B40","kind":"hex"},"diameter":8},\
        "dayNumber":{"color":{"kind":"primary"},"fontSize":8,"weight":"medium"},\
        "hitArea":{"color":{"kind":"white","opacity":0.01},"diameter":22},\
        "ring":{"color":{"hex":"#44C0FF","kind":"hex"},"diameter":22,"lineWidth":2}}
        """)
    let decoded = try JSONDecoder().decode(DateCircleStyle.self, from: Data(try F.json(style).utf8))
    #expect(decoded == style)
  }

  @Test func semanticColoursRoundTripAndRejectUnknownKinds() throws {
    let colours: [SemanticColor] = [.grey(opacity: 0.15), .white(opacity: 1), .hex(.entry), .primary, .secondary]
    let data = try JSONEncoder().encode(colours)
    #expect(try JSONDecoder().decode([SemanticColor].self, from: data) == colours)
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(SemanticColor.self, from: Data(#"{"kind":"purple"}"#.utf8))
    }
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(SemanticColor.self, from: Data(##"{"kind":"hex","hex":"#12"}"##.utf8))
    }
  }
}
