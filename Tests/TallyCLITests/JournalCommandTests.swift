import Foundation
import TallyCore
import TallyStore
import Testing

@Suite struct JournalCommandTests {
  @Test func writesReplacesShowsAndClearsTheDaysEntry() async throws {
    let tally = Harness()
    #expect(await tally.ok("journal", "A good day.") == "Saved the journal for 2026-03-08 (11 characters).\n")
    await tally.ok("journal", "2026-03-06", "Rain")
    await tally.ok("journal", "2026-03-06", "Rain all day")
    let user = try await tally.user()
    #expect(try await tally.store().journalEntry(on: day("2026-03-06"), for: user.id)?.text == "Rain all day")
    #expect(await tally.ok("journal") == "Sunday 8 March 2026\n\nA good day.\n")
    let shown = try #require(try await tally.run("journal", "yesterday", "--json").json() as? [String: Any])
    #expect(shown["day"] as? String == "2026-03-07")
    #expect(shown["entry"] is NSNull)
    #expect((shown["chat"] as? [Any])?.isEmpty == true)
    #expect(await tally.ok("journal", "2026-03-06", "--clear") == "Cleared the journal for 2026-03-06.\n")
    #expect(try await tally.store().journalEntry(on: day("2026-03-06"), for: user.id) == nil)
  }

  @Test func chatAddsMessagesThatTheJournalShows() async throws {
    let tally = Harness()
    #expect(await tally.ok("chat", "hello") == "Added a message to 2026-03-08 (1 message that day).\n")
    await tally.ok("--now", "2026-03-08T13:15:00Z", "chat", "today", "hi there", "--assistant")
    #expect(await tally.ok("journal") == "Sunday 8 March 2026\nNo journal entry.\n\n12:00 you: hello\n13:15 assistant: hi there\n")
    let run = await tally.run("chat", "2026-03-01", "back then", "--json")
    let object = try #require(try run.json() as? [String: Any])
    #expect(Set(object.keys) == ["id", "day", "role", "text", "sentAt"])
    #expect(object["day"] as? String == "2026-03-01")
    #expect(object["role"] as? String == "user")
    #expect(object["sentAt"] as? String == "2026-03-08T12:00:00.000Z")
  }

  @Test(arguments: [
    (["journal", "2026-03-09", "later"], 1, "Error: The day 2026-03-09 is in the future (today is 2026-03-08); the journal holds days up to today."),
    (["chat", "2026-03-09", "later"], 1, "Error: The day 2026-03-09 is in the future (today is 2026-03-08); the chat holds days up to today."),
    (["journal", "2026-02-30", "x"], 64, "Error: The day must be a date written YYYY-MM-DD like 2026-03-08, today, yesterday or a range FIRST..LAST, not '2026-02-30'."),
    (["journal", "monday", "x"], 64, "Error: The day must be a date written YYYY-MM-DD, today or yesterday, not 'monday'."),
    (["journal", "   "], 64, "Error: The text must contain some text, not only spaces or nothing."),
    (["journal", "x", "--clear"], 64, "Error: Give TEXT or --clear, not both."),
    (["chat", "today", ""], 64, "Error: The text must contain some text, not only spaces or nothing."),
  ])
  func refusalsChangeNothing(arguments: [String], status: Int32, message: String) async throws {
    let tally = Harness()
    await tally.ok("journal", "kept")
    let before = try await tally.snapshot()
    let run = await tally.run(arguments)
    #expect(run.status == status)
    #expect(run.stderr == message + "\n")
    #expect(try await tally.snapshot() == before)
  }

  @Test func todayShowsTheStreakHeaderAndGrid() async throws {
    let tally = Harness()
    await tally.ok("chat", "2026-03-06", "a")
    await tally.ok("chat", "2026-03-07", "b")
    await tally.ok("journal", "2026-03-07", "entry")
    let out = await tally.ok("today", "--width", "200")
    // 200 points fit 7 columns: 42 days, row by row, ending 4 days after today.
    #expect(out == """
      Sunday 8 March 2026
      2 Days Streak • 2 Chats • 1 Entry

       30   31    1    2    3    4    5
        6    7    8    9   10   11   12
       13   14   15   16   17   18   19
       20   21   22   23   24   25   26
       27   28    1    2    3    4    5
        6 •  7 ●[ 8]   9   10   11   12

      [ ] today  ● entry  • chat

      """)
  }

  @Test func todayJSONIsTheView() async throws {
    let tally = Harness()
    await tally.ok("chat", "2026-03-07", "b")
    let run = await tally.run("today", "--json")
    let object = try #require(try run.json() as? [String: Any])
    #expect(object["today"] as? String == "2026-03-08")
    #expect(object["streak"] as? Int == 1)
    #expect(object["streakBadge"] as? String == "1 Day Streak")
    let grid = try #require(object["grid"] as? [String: Any])
    let layout = try #require(grid["layout"] as? [String: Any])
    #expect(layout["columns"] as? Int == 11)
    #expect((grid["cells"] as? [Any])?.count == 66)
    #expect(((object["dateRow"] as? [String: Any])?["cells"] as? [Any])?.count == 33)
  }

  @Test func todayRefusesAWidthThatIsNotOne() async throws {
    let tally = Harness()
    let run = await tally.run("today", "--width=-5")
    #expect(run.status == 64)
    #expect(run.stderr == "Error: The width must be a number of points, 0 or more, not -5.0.\n")
  }
}
