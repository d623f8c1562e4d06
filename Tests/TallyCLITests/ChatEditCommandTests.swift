import Foundation
import TallyCore
import TallyStore
import Testing

@Suite struct ChatEditCommandTests {
  @Test func aMessageIsEditedAndDeletedByTheStartOfItsId() async throws {
    let tally = Harness()
    let sent = try #require(try await tally.run("chat", "2026-03-07", "helo", "--json").json() as? [String: Any])
    let id = try #require(sent["id"] as? String)
    #expect(await tally.ok("chat", "--edit", String(id.prefix(8)), "hello") == "Edited the message of 2026-03-07.\n")
    let user = try await tally.user()
    let stored = try await tally.store().chatMessages(on: day("2026-03-07"), for: user.id)
    #expect(stored.map(\.text) == ["hello"])
    #expect(stored.first.map { InstantText.text($0.sentAt) } == "2026-03-08T12:00:00.000Z", "the written instant stays")
    #expect(await tally.ok("journal", "2026-03-07") == "Saturday 7 March 2026\nNo journal entry.\n\n2026-03-08 12:00 you: hello\n")
    #expect(await tally.ok("chat", "--delete", id) == "Deleted the message of 2026-03-07.\n")
    #expect(try await tally.store().chatMessages(on: day("2026-03-07"), for: user.id).isEmpty)
  }

  @Test(arguments: [
    (["chat", "--delete", "abc"], 1, "Error: The message id 'abc' is too short: give at least its first 8 characters."),
    (["chat", "--delete", "00000000"], 1, "Error: You have no chat message with an id starting '00000000': 'tally journal DAY --json' lists a day's ids."),
    (["chat", "--delete", "00000000", "text"], 64, "Error: --delete takes only the message's id."),
    (["chat", "--edit", "00000000", "today", "text"], 64, "Error: --edit takes the message's id and its new text only."),
    (["journal", "--search", "  "], 64, "Error: --search needs words to look for."),
    (["journal", "today", "--search", "x"], 64, "Error: --search takes no day, text or --clear."),
  ])
  func refusalsChangeNothing(arguments: [String], status: Int32, message: String) async throws {
    let tally = Harness()
    await tally.ok("chat", "kept")
    let before = try await tally.snapshot()
    let run = await tally.run(arguments)
    #expect(run.status == status)
    #expect(run.stderr == message + "\n")
    #expect(try await tally.snapshot() == before)
  }

  @Test func journalSearchListsMatchingEntriesNewestFirst() async throws {
    let tally = Harness()
    await tally.ok("journal", "2025-03-01", "Coffee at the Café\nsecond line")
    await tally.ok("journal", "2026-03-01", "no coffee")
    await tally.ok("journal", "2026-03-02", "tea")
    #expect(await tally.ok("journal", "--search", "CAFE") == "2025-03-01  Coffee at the Café\n")
    #expect(await tally.ok("journal", "--search", "coffee") == "2026-03-01  no coffee\n2025-03-01  Coffee at the Café\n")
    #expect(await tally.ok("journal", "--search", "zebra") == "No journal entry holds 'zebra'.\n")
    let json = try #require(try await tally.run("journal", "--search", "tea", "--json").json() as? [[String: Any]])
    #expect(json.map { $0["day"] as? String } == ["2026-03-02"])
  }
}
