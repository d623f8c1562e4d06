import Foundation
import TallyCore
import TallyStore
import Testing

@Suite struct HabitCommandTests {
  @Test func addPrintsTheNewHabitAndStoresIt() async throws {
    let tally = Harness()
    let out = await tally.ok("habit", "add", "Read", "--color", "#0A0", "--icon", "📚", "--group", "Mind")
    let habit = try #require(try await tally.store().habits(for: try await tally.user().id, includingArchived: true).first)
    #expect(out == "Added 'Read', daily, from 2026-03-08: \(habit.id.storeText)\n")
    #expect(habit.name == "Read")
    #expect(habit.color.hex == "#00AA00")
    #expect(habit.icon == "📚")
    #expect(habit.group == "Mind")
    #expect(habit.createdDay == day("2026-03-08"))
    #expect(habit.frequency == .daily)
    #expect(habit.sortOrder == 0)
  }

  @Test func addJSONHasEveryKeyAndLowerCaseIds() async throws {
    let tally = Harness()
    let run = await tally.run("habit", "add", "Run", "--weekly", "3", "--created", "2026-03-01", "--reminder", "07:30", "--json")
    #expect(run.status == 0)
    let object = try #require(try run.json() as? [String: Any])
    #expect(Set(object.keys) == [
      "id", "name", "icon", "color", "group", "createdDay", "frequency", "reminder", "archived", "sortOrder",
      "measure", "description",
    ])
    let id = try #require(object["id"] as? String)
    #expect(id == id.lowercased())
    #expect(object["icon"] is NSNull)
    #expect(object["createdDay"] as? String == "2026-03-01")
    #expect(object["color"] as? String == "#8B5CF6")
    let frequency = try #require(object["frequency"] as? [String: Any])
    #expect(frequency["type"] as? String == "weekly")
    #expect(frequency["targetPerWeek"] as? Int == 3)
    let reminder = try #require(object["reminder"] as? [String: Any])
    #expect(reminder["type"] as? String == "single")
    #expect(reminder["time"] as? String == "07:30")
    // Keys are sorted, so the text is stable.
    #expect(run.stdout.range(of: "\"archived\"")!.lowerBound < run.stdout.range(of: "\"color\"")!.lowerBound)
  }

  @Test func newHabitsGoLast() async throws {
    let tally = Harness()
    _ = try await tally.addHabit("B")
    _ = try await tally.addHabit("A")
    let out = await tally.ok("habit", "list", "--json")
    let list = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String: Any]])
    #expect(list.map { $0["name"] as? String } == ["B", "A"])
    #expect(list.map { $0["sortOrder"] as? Int } == [0, 1])
  }

  @Test(arguments: [
    (["--color", "blue"], "Error: The color must be a hex colour like #RGB, #RRGGBB or #AARRGGBB, not 'blue'."),
    (["--weekly", "7"], "Error: The weekly target must be from 1 to 6 days a week (7 is daily), not 7."),
    (["--weekly", "0"], "Error: The weekly target must be from 1 to 6 days a week (7 is daily), not 0."),
    (["--icon", "not an icon"], "Error: The icon must be one emoji or a symbol name like figure.walk, not 'not an icon'."),
    (["--created", "2026-02-30"], "Error: The day must be a date written YYYY-MM-DD like 2026-03-08, today, yesterday or a range FIRST..LAST, not '2026-02-30'."),
    (["--reminder", "25:00"], "Error: The reminder must be none, a time like 08:30, or a period like 08:00-22:00/2h (every 2 hours), not '25:00'."),
  ])
  func addRefusesBadOptionsAndStoresNothing(options: [String], message: String) async throws {
    let tally = Harness()
    _ = try await tally.addHabit("Existing")
    let before = try await tally.snapshot()
    let run = await tally.run(["habit", "add", "New"] + options)
    #expect(run.status == 64)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.hasPrefix(message), "\(run.stderr)")
    #expect(try await tally.snapshot() == before)
  }

  @Test func addRefusesATakenNameAndAFutureStart() async throws {
    let tally = Harness()
    _ = try await tally.addHabit("Read")
    let before = try await tally.snapshot()
    let taken = await tally.run("habit", "add", " Read ")
    #expect(taken.status == 1)
    #expect(taken.stderr == "Error: A habit named 'Read' already exists; give the new one another name.\n")
    let future = await tally.run("habit", "add", "Later", "--created", "2026-03-09")
    #expect(future.status == 1)
    #expect(future.stderr == "Error: The created day 2026-03-09 is after today (2026-03-08); a habit starts today or earlier.\n")
    let beforeAll = await tally.run("habit", "add", "Ancient", "--created", "0000-06-01")
    #expect(beforeAll.stderr == "Error: The created day 0000-06-01 is before 0001-01-01, the first day Tally keeps.\n")
    #expect(try await tally.snapshot() == before)
  }

  @Test func listIsAlignedAndHidesArchived() async throws {
    let tally = Harness()
    let read = try await tally.addHabit("Read", "--group", "Mind")
    let run = try await tally.addHabit("Go for a run", "--weekly", "3", "--reminder", "08:00-20:00/4h")
    await tally.ok("habit", "archive", "Read")
    let out = await tally.ok("habit", "list")
    #expect(out == """
      ID        NAME          HOW OFTEN  COLOR    GROUP  REMINDER
      \(run.storeText.prefix(8))  Go for a run  3 a week   #8B5CF6         08:00-20:00 every 4h

      """)
    let all = await tally.ok("habit", "list", "--archived")
    #expect(all.contains("\(read.storeText.prefix(8))  Read"))
    #expect(all.contains("archived"))
  }

  @Test func habitsAreFoundByNameIdOrIdStart() async throws {
    let tally = Harness()
    let id = try await tally.addHabit("Read")
    for reference in ["Read", id.storeText, id.uuidString, String(id.storeText.prefix(6))] {
      let out = await tally.ok("habit", "edit", reference, "--color", "#123456")
      #expect(out == "Changed 'Read' (\(id.storeText.prefix(8))).\n")
    }
  }

  @Test func anUnknownHabitIsNamedInTheError() async throws {
    let tally = Harness()
    _ = try await tally.addHabit("Read")
    for command in [["habit", "edit", "Write", "--name", "X"], ["habit", "archive", "Write"], ["habit", "delete", "Write"], ["mark", "Write"], ["stats", "Write"]] {
      let run = await tally.run(command)
      #expect(run.status == 1)
      #expect(run.stderr == "Error: There is no habit named 'Write' or with an id starting so; 'tally habit list --archived' shows them all.\n")
    }
  }

  @Test func editChangesOnlyWhatIsGiven() async throws {
    let tally = Harness()
    let id = try await tally.addHabit("Read", "--icon", "book", "--group", "Mind")
    await tally.ok("habit", "edit", "Read", "--name", "Read more", "--weekly", "4", "--group", "")
    let habit = try await tally.store().habit(id: id, for: try await tally.user().id)
    #expect(habit.name == "Read more")
    #expect(habit.frequency == .weekly(targetPerWeek: 4))
    #expect(habit.group == nil)
    #expect(habit.icon == "book")
    await tally.ok("habit", "edit", id.storeText, "--daily")
    #expect(try await tally.store().habit(id: id, for: try await tally.user().id).frequency == .daily)
  }

  @Test func editRefusesNothingToChangeBothFrequenciesAndATakenName() async throws {
    let tally = Harness()
    _ = try await tally.addHabit("Read")
    _ = try await tally.addHabit("Run")
    let before = try await tally.snapshot()
    let nothing = await tally.run("habit", "edit", "Read")
    #expect(nothing.status == 64)
    #expect(nothing.stderr.hasPrefix("Error: Nothing to change"))
    let both = await tally.run("habit", "edit", "Read", "--daily", "--weekly", "2")
    #expect(both.status == 64)
    let taken = await tally.run("habit", "edit", "Read", "--name", "Run")
    #expect(taken.status == 1)
    #expect(taken.stderr == "Error: A habit named 'Run' already exists; choose another name.\n")
    #expect(try await tally.snapshot() == before)
  }

  @Test func archiveKeepsEntriesAndUnarchiveBringsItBack() async throws {
    let tally = Harness()
    let id = try await tally.addHabit("Read")
    await tally.ok("mark", "Read", "2026-03-07", "2026-03-08")
    await tally.ok("habit", "archive", "Read")
    let user = try await tally.user()
    #expect(try await tally.store().habits(for: user.id, includingArchived: false).isEmpty)
    #expect(try await tally.entries(of: id).count == 2)
    await tally.ok("habit", "unarchive", "Read")
    #expect(try await tally.store().habits(for: user.id, includingArchived: false).count == 1)
  }

  @Test func deleteRemovesTheHabitAndItsEntries() async throws {
    let tally = Harness()
    _ = try await tally.addHabit("Read")
    await tally.ok("mark", "Read", "2026-03-07", "2026-03-08")
    let out = await tally.ok("habit", "delete", "Read")
    #expect(out == "Deleted 'Read' and its 2 entries.\n")
    #expect(try await tally.store().habits(for: try await tally.user().id, includingArchived: true).isEmpty)
  }
}
