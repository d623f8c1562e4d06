import Foundation
import TallyCore
import TallyImport
import TallySQLite
import TallyStore
import TallyTestFiles
import Testing

/// Daylio and Day One into the journal (and Daylio's activities into habits).
@Suite struct JournalImportTests {
  /// The test's own reading of Daylio's CSV: quoted fields hold no commas in the sample, so
  /// splitting on `","` after the first unquoted fields is enough here.
  static func daylioRows() throws -> [(day: String, mood: String, activities: [String])] {
    let text = String(decoding: try SharedFixtures.data("daylio/sample.csv"), as: UTF8.self)
    return text.split(whereSeparator: \.isNewline).dropFirst().map { line in
      let quoted = line.components(separatedBy: "\"")
      let plain = quoted[0].split(separator: ",", omittingEmptySubsequences: false)
      return (
        String(plain[0]), plain[4].trimmingCharacters(in: .whitespaces),
        quoted[1].components(separatedBy: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      )
    }
  }

  @Test func daylioActivitiesBecomeHabitsAndMoodsJournalLines() async throws {
    let history = try SharedFixtures.read("daylio/sample.csv")
    let rows = try Self.daylioRows()
    var expected: [String: Set<String>] = [:]
    for row in rows { for activity in row.activities { expected[activity, default: []].insert(row.day) } }
    #expect(Set(history.habits.map(\.name)) == Set(expected.keys))
    for habit in history.habits {
      #expect(Set(habit.entries.map(\.day.description)) == expected[habit.name], "\(habit.name)")
      #expect(habit.entries.allSatisfy { $0.status == .done })
    }
    let target = try await ImportTarget()
    let summary = try await target.runTwice(history)
    #expect(summary.journalAdded == rows.count)
    let journal = try await target.journal()
    #expect(journal.map(\.day.description) == rows.map(\.day).sorted())
    #expect(journal.first?.text == "23:00 average")
    #expect(journal.last?.text == "22:00 sad")
  }

  @Test func severalDaylioEntriesOnADayAreAllKeptInTimeOrder() async throws {
    let csv = """
      full_date,date,weekday,time,mood,activities,note_title,note
      2024-05-02,2 May,Thursday,9:15 pm,good,"reading | walk","Evening","Long walk<br>then a book"
      2024-05-02,2 May,Thursday,8:05 am,meh,"walk","",""
      """
    let history = try DaylioReader.read(Data(csv.utf8), today: SharedFixtures.today)
    #expect(history.habits.map(\.name) == ["walk", "reading"])
    #expect(history.habits.map(\.entries.count) == [1, 1])
    let target = try await ImportTarget()
    try await target.runTwice(history)
    #expect(try await target.journal() == [
      try JournalEntry(day: day("2024-05-02"), text: "08:05 meh\n\n21:15 good\nEvening\nLong walk\nthen a book")
    ])
  }

  @Test func daylioHostileInputsNameTheLine() throws {
    func read(_ text: String) throws -> ImportedHistory { try DaylioReader.read(Data(text.utf8), today: SharedFixtures.today) }
    #expect(throws: ImportError("line 2 of the Daylio CSV", "the date 1969-12-31 is before 1970 or after 9999, not one a habit tracker wrote")) {
      try read("full_date,date,weekday,time,mood,activities\n1969-12-31,x,x,10:00,good,a\n")
    }
    #expect(throws: ImportError("line 2 of the Daylio CSV", "the full_date '31/12/2020' is not a date")) {
      try read("full_date,date,weekday,time,mood,activities\n31/12/2020,x,x,10:00,good,a\n")
    }
    #expect(throws: ImportError("the Daylio CSV", "the file is not UTF-8 text")) {
      try DaylioReader.read(Data([0x66, 0x75, 0xFF, 0x0A]), today: SharedFixtures.today)
    }
    #expect(throws: ImportError("line 1 of the Daylio CSV", "the header lacks mood, activities, so it is not an export of Daylio; it is 'full_date,time'")) {
      try read("full_date,time\n2020-01-01,10:00\n")
    }
    #expect(throws: ImportError("the Daylio CSV", "the file is empty; it should start with Daylio's header line")) { try read("") }
  }

  /// The test's own count of Day One's JSON: entries by day in each entry's own time zone.
  static func dayOneEntries(_ file: String) throws -> [(day: String, hasText: Bool, media: Int)] {
    let root = try JSONSerialization.jsonObject(with: try SharedFixtures.data(file)) as! [String: Any]
    return (root["entries"] as! [[String: Any]]).map { entry in
      let formatter = DateFormatter()
      formatter.dateFormat = "yyyy-MM-dd"
      formatter.timeZone = TimeZone(identifier: entry["timeZone"] as! String)
      let date = ISO8601DateFormatter().date(from: entry["creationDate"] as! String)!
      let media = ["photos", "videos", "audios", "pdfAttachments"].reduce(0) { $0 + ((entry[$1] as? [Any])?.count ?? 0) }
      let text = (entry["text"] as? String) ?? ""
      return (formatter.string(from: date), !text.isEmpty, media)
    }
  }

  @Test(arguments: ["dayone/dayone2.json", "dayone/demo.json", "dayone/MyJournal.json"])
  func dayOneJSONEntriesLandOnTheirOwnDays(_ file: String) async throws {
    let history = try SharedFixtures.read(file)
    let expected = try Self.dayOneEntries(file)
    #expect(history.journal.map(\.day.description) == expected.filter(\.hasText).map(\.day))
    #expect(history.habits.isEmpty)
    let withMedia = expected.filter { $0.media > 0 }.count
    #expect(history.warnings.contains { $0.message.hasPrefix("photos and other attachments are not carried") } == (withMedia > 0))
    #expect(history.warnings.contains { $0.message.hasPrefix("entries without text are not carried") } == expected.contains { !$0.hasText })
    let target = try await ImportTarget()
    let summary = try await target.runTwice(history)
    #expect(summary.journalAdded == Set(expected.filter(\.hasText).map(\.day)).count)
  }

  @Test func dayOneTextIsPlainTagsFollowAndAZipReadsTheSame() async throws {
    let demo = try SharedFixtures.read("dayone/demo.json")
    let third = try #require(demo.journal.first { $0.text.hasPrefix("# Third entry") })
    #expect(third.text == "# Third entry with double escapes\n\ndouble escape a/b dot. single escape slash/")
    #expect(!demo.journal.contains { $0.text.contains("dayone-moment") })
    let two = try SharedFixtures.read("dayone/dayone2.json")
    #expect(two.journal.map(\.text).first?.hasSuffix("\n\nTags: awesome, great") == true)
    // dayone2.json stars one entry: reported, naming it.
    let starred = try #require(two.warnings.first { $0.message.hasPrefix("stars are not carried") })
    #expect(starred.message.components(separatedBy: "; ").count == 1)
    let zipped = try zip([("Journal.json", String(decoding: try SharedFixtures.data("dayone/demo.json"), as: UTF8.self))])
    let fromZip = try Importer.read(.dayOne, path: zipped, data: try Data(contentsOf: URL(fileURLWithPath: zipped)), today: SharedFixtures.today)
    #expect(fromZip.journal.map(\.text) == demo.journal.map(\.text))
    // Two entries of one day are both kept.
    let target = try await ImportTarget()
    try await target.run(two)
    let entry = try #require(try await target.journal().first)
    #expect(entry.text.contains("Entry Number One.") && entry.text.contains("Entry Number Two."))
  }

  /// 23:30 UTC is the next day in Tokyo, where the entry was written; without a zone the
  /// importing user's is used.
  @Test func aDayOneEntryIsOnItsDayInItsOwnTimeZone() throws {
    let json = #"""
      {"metadata": {"version": "1.2"}, "entries": [
        {"uuid": "A", "creationDate": "2020-01-10T23:30:00Z", "timeZone": "Asia/Tokyo", "text": "Late"},
        {"uuid": "B", "creationDate": "2020-01-10T23:30:00Z", "text": "Zoneless"}]}
      """#
    let history = try DayOneReader.read(
      path: "", data: Data(json.utf8), today: SharedFixtures.today, timeZone: TimeZone(identifier: "America/New_York")!)
    #expect(history.journal.map(\.day) == [day("2020-01-11"), day("2020-01-10")])
    #expect(history.warnings.map(\.message) == [
      "entries without a time zone are put on their day in America/New_York: entry 2 (B) of the Day One JSON"
    ])
  }

  @Test func aCutZipOrBrokenDayOneFileIsNamed() throws {
    let zipped = try zip([("Journal.json", String(decoding: try SharedFixtures.data("dayone/demo.json"), as: UTF8.self))])
    let whole = try Data(contentsOf: URL(fileURLWithPath: zipped))
    let cut = temporaryFile("cut.zip")
    try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: cut))
    #expect(throws: ImportError(nil, "the file is not a zip archive (or it is cut short)")) {
      try Importer.read(.dayOne, path: cut, data: try Data(contentsOf: URL(fileURLWithPath: cut)), today: SharedFixtures.today)
    }
    #expect(throws: ImportError("the Day One JSON", "it is not JSON (is it cut short?)")) {
      try DayOneReader.read(path: "", data: Data(#"{"entries": ["#.utf8), today: SharedFixtures.today)
    }
    #expect(throws: ImportError("entry 1 (A) of the Day One JSON", "the date 1969-12-31 is before 1970 or after 9999, not one a habit tracker wrote")) {
      try DayOneReader.read(
        path: "", data: Data(#"{"metadata":{"version":"1.0"},"entries":[{"uuid":"A","creationDate":"1969-12-31T10:00:00Z","timeZone":"UTC","text":"x"}]}"#.utf8),
        today: SharedFixtures.today)
    }
    #expect(throws: ImportError("entry 1 of the Day One JSON", "its creationDate 'soon' is not a date and time")) {
      try DayOneReader.read(
        path: "", data: Data(#"{"metadata":{},"entries":[{"creationDate":"soon","text":"x"}]}"#.utf8), today: SharedFixtures.today)
    }
  }

  /// The test's own count of a Classic folder: its .doentry files.
  static func doentries(_ folder: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: SharedFixtures.path("dayone/\(folder)/entries"))
      .filter { $0.hasSuffix(".doentry") }.sorted()
  }

  @Test func dayOneClassicFoldersImportEveryReadableEntry() async throws {
    let classic = try SharedFixtures.read("dayone/dayone.dayone", timeZone: TimeZone(identifier: "Asia/Tokyo")!)
    #expect(classic.journal.count == (try Self.doentries("dayone.dayone")).count)
    #expect(classic.journal.contains { $0.text.hasSuffix("Tags: work, PLaY") })
    #expect(classic.warnings.contains { $0.message.hasPrefix("entries without a time zone are put on their day in Asia/Tokyo") })

    let basic = try SharedFixtures.read("dayone/basic_dayone.dayone")
    #expect(basic.journal.count == (try Self.doentries("basic_dayone.dayone")).count)

    // The broken property list is reported by name and left out; the other entry is read.
    let bug153 = try SharedFixtures.read("dayone/bug153.dayone")
    #expect(bug153.journal.count == 1)
    #expect(bug153.warnings.first?.message == "entries that are not readable property lists are not carried: entries/B40EE704E15846DE8D45C44118A4D512.doentry")
    // An entry with empty text is reported, and a folder with nothing else imports nothing.
    let bug780 = try SharedFixtures.read("dayone/bug780.dayone")
    #expect(bug780.journal.isEmpty)
    #expect(bug780.warnings.contains { $0.message == "entries without text are not carried: entries/48A25033B34047C591160A4480197D8B.doentry" })

    let target = try await ImportTarget()
    let summary = try await target.runTwice(classic)
    #expect(summary.journalAdded == Set(classic.journal.map(\.day)).count)
  }

  /// The web app and the API take the folder as a zip: the same entries come out.
  @Test func aZippedDayOneClassicFolderReadsAsTheFolder() throws {
    let files = try Self.doentries("basic_dayone.dayone").map { name in
      ("basic_dayone.dayone/entries/\(name)",
       String(decoding: try SharedFixtures.data("dayone/basic_dayone.dayone/entries/\(name)"), as: UTF8.self))
    }
    let zipped = try zip(files)
    let data = try Data(contentsOf: URL(fileURLWithPath: zipped))
    #expect(try Importer.detect(path: zipped, data: data) == .dayOneClassic)
    let fromZip = try Importer.read(.dayOneClassic, path: zipped, data: data, today: SharedFixtures.today)
    let fromFolder = try SharedFixtures.read("dayone/basic_dayone.dayone")
    #expect(fromZip.journal.map(\.text) == fromFolder.journal.map(\.text))
    #expect(fromZip.journal.map(\.day) == fromFolder.journal.map(\.day))
  }

  @Test func aFolderOfOnlyBrokenEntriesIsRefusedByName() throws {
    let journal = TestFiles.folder("import").appendingPathComponent("broken.dayone")
    try FileManager.default.createDirectory(at: journal.appendingPathComponent("entries"), withIntermediateDirectories: true)
    try "<dict>".write(to: journal.appendingPathComponent("entries/A.doentry"), atomically: true, encoding: .utf8)
    #expect(throws: ImportError("entries/A.doentry", "no entry is a readable property list (1 file tried), so nothing can be imported")) {
      try DayOneClassicReader.read(path: journal.path, today: SharedFixtures.today)
    }
  }

  /// Imported text joins what the day holds: kept when there, added after it otherwise.
  @Test func journalTextIsAddedAfterWhatTheDayHasNeverReplacingIt() async throws {
    let target = try await ImportTarget()
    try await target.store.setJournalEntry(try JournalEntry(day: day("2020-01-10"), text: "Mine."), for: target.user.id)
    let history = try SharedFixtures.read("dayone/dayone2.json")
    let summary = try await target.runTwice(history)
    #expect(summary.journalMerged == 1)
    let text = try #require(try await target.journal().first?.text)
    #expect(text.hasPrefix("Mine.\n\n"))
  }

  /// One transaction: journal text too long for a day refuses the whole import, habits too.
  @Test func aJournalEntryTooLongWritesNothing() async throws {
    let target = try await ImportTarget()
    let long = String(repeating: "a", count: JournalEntry.maxCharacters + 1)
    let history = ImportedHistory(
      format: .daylio, habits: [ImportedHabit(name: "walk", entries: [HabitEntry(day: day("2024-01-01"), status: .done)])],
      journal: [ImportedJournalText(day: day("2024-01-01"), text: long, source: "line 2 of the Daylio CSV")])
    do {
      try await target.run(history)
      Issue.record("a day's journal text too long was imported")
    } catch let error as ImportError {
      #expect(error.description == "Line 2 of the Daylio CSV: the journal text of 2024-01-01 must be at most 100000 characters (this one has 100001)")
    }
    #expect(try await target.habits().isEmpty)
    var additions = HistoryAdditions(
      newHabits: [UserSnapshot.HabitWithEntries(habit: try Habit(id: UUID(), name: "walk", createdDay: day("2024-01-01")), entries: [])])
    additions.journal[day("2024-01-01")] = [long]
    await #expect(throws: StoreError.self) { try await target.store.addHistory(additions, for: target.user.id) }
    #expect(try await target.habits().isEmpty)
    #expect(try await target.journal().isEmpty)
  }
}
