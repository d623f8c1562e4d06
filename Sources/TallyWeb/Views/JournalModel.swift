import Foundation
import TallyCore
import TallyHTTP
import TallyLocalization
import TallyStore

/// The journal read back (`GET /journal`): entries newest first with each day's chat count,
/// a search, and "on this day" from earlier years, as Day One shows them.
struct JournalModel: Sendable {
  /// An excerpt cut around the first match, the match marked.
  struct Excerpt: Sendable {
    let before: String
    let match: String?
    let after: String
  }

  struct Item: Sendable {
    let day: String
    let heading: String
    let href: String
    let chat: String?
    let excerpt: Excerpt?
  }

  static let pageSize = 30
  /// Characters of an entry shown in the list; the day itself holds the whole text.
  static let excerptLength = 400

  let query: String
  let searching: Bool
  let resultSummary: String?
  let onThisDay: [Item]
  let items: [Item]
  let older: String?
  let isEmpty: Bool

  static func read(
    from store: any Store, user: User, today: Day, words: PageDays, query: String?, before: Day?
  ) async throws -> JournalModel {
    let t = words.t
    let messages = try await store.chatMessages(in: Day.allTime, for: user.id)
    let chatCounts = Dictionary(grouping: messages, by: \.day).mapValues(\.count)
    func item(_ day: Day, _ text: String?, match: String?) -> Item {
      let count = chatCounts[day] ?? 0
      return Item(
        day: day.description, heading: words.name(day, includingYear: true),
        href: "/today?day=\(day)#journal",
        chat: count == 0 ? nil : t.plural("journal.chatMessages", count: count),
        excerpt: text.map { excerpt($0, match: match) })
    }

    if let query, let words = JournalSearch.query(query) {
      let found = try await store.searchJournal(words, for: user.id)
      return JournalModel(
        query: query, searching: true,
        resultSummary: found.isEmpty
          ? t.text("journal.noneFound", ["words": words]) : t.plural("journal.found", count: found.count, ["words": words]),
        onThisDay: [], items: found.map { item($0.day, $0.text, match: words) }, older: nil, isEmpty: false)
    }

    let entries = try await store.journalEntries(in: Day.allTime, for: user.id)
    let texts = Dictionary(uniqueKeysWithValues: entries.map { ($0.day, $0.text) })
    let days = Set(texts.keys).union(chatCounts.keys).sorted(by: >)
    let shown = days.filter { day in before.map { day < $0 } ?? true }
    let page = shown.prefix(pageSize)
    let earlierYears = entries.reversed().filter {
      $0.day.month == today.month && $0.day.day == today.day && $0.day.year < today.year
    }
    return JournalModel(
      query: query ?? "", searching: false, resultSummary: nil,
      onThisDay: earlierYears.map { item($0.day, $0.text, match: nil) },
      items: page.map { item($0, texts[$0], match: nil) },
      older: shown.count > pageSize ? page.last.map { "/journal?before=\($0)" } : nil,
      isEmpty: days.isEmpty)
  }

  /// The start of the entry, or a window around the first match so the match is in view.
  static func excerpt(_ text: String, match: String?) -> Excerpt {
    let options: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive]
    guard let match, let range = text.range(of: match, options: options) else {
      return Excerpt(before: clipped(text[...]), match: nil, after: "")
    }
    let lead = text.index(range.lowerBound, offsetBy: -120, limitedBy: text.startIndex) ?? text.startIndex
    let before = (lead == text.startIndex ? "" : "…") + text[lead..<range.lowerBound]
    return Excerpt(
      before: String(before), match: String(text[range]),
      after: clipped(text[range.upperBound...], limit: excerptLength - 120))
  }

  private static func clipped(_ text: Substring, limit: Int = excerptLength) -> String {
    text.count > limit ? String(text.prefix(limit)) + "…" : String(text)
  }
}
