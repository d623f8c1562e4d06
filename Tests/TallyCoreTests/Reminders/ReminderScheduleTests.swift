import Foundation
import TallyCore
import Testing

@Suite struct ReminderScheduleTests {
  typealias F = ReminderFixtures

  private func schedule(
    _ zone: String, daySwitchHour: Int = 0, firstWeekday: Weekday = .sunday
  ) throws -> ReminderSchedule {
    ReminderSchedule(calendar: try F.calendar(zone, daySwitchHour: daySwitchHour, firstWeekday: firstWeekday))
  }

  private func wallTimes(_ occurrences: [ReminderOccurrence]) -> [String] {
    occurrences.map { "\($0.day) \($0.time)" }
  }

  @Test func periodicEveryTwoHoursFromEightToTenFiresEightTimes() throws {
    let habit = try F.habit(reminder: try F.periodic("08:00", "22:00", every: 2))
    let found = try schedule("Europe/Berlin").occurrences(
      of: habit, entries: [], after: try F.instant("2026-06-10T07:00:00+02:00"), days: 1)
    #expect(found.map(\.time.description) == ["08:00", "10:00", "12:00", "14:00", "16:00", "18:00", "20:00", "22:00"])
    #expect(found.first?.instant == (try F.instant("2026-06-10T08:00:00+02:00")))
    #expect(found.allSatisfy { $0.habitID == habit.id && $0.day == (try? F.day("2026-06-10")) })
  }

  @Test func onlyInstantsStrictlyAfterNowCount() throws {
    let habit = try F.habit(reminder: try F.periodic("08:00", "22:00", every: 2))
    let calendar = try F.calendar("Europe/Berlin")
    let atTen = try F.instant("2026-06-10T10:00:00+02:00")
    let found = try ReminderSchedule(calendar: calendar).occurrences(of: habit, entries: [], after: atTen, days: 1)
    #expect(found.first?.time.description == "12:00")
    #expect(found.count == 6)
    let justBefore = try ReminderSchedule(calendar: calendar)
      .occurrences(of: habit, entries: [], after: atTen.addingTimeInterval(-1), days: 1)
    #expect(justBefore.first?.time.description == "10:00")
  }

  @Test func coversTheNextNDaysFromToday() throws {
    let habit = try F.habit(reminder: .single(try F.time("21:00")))
    let found = try schedule("Asia/Kolkata").occurrences(
      of: habit, entries: [], after: try F.instant("2024-02-27T22:00:00+05:30"), days: 4)
    // Today's 21:00 has passed; the window ends with 2024-03-01, the fourth day.
    #expect(wallTimes(found) == ["2024-02-28 21:00", "2024-02-29 21:00", "2024-03-01 21:00"])
    #expect(found[1].instant == (try F.instant("2024-02-29T21:00:00+05:30")))
  }

  @Test func rejectsAWindowOfNoDays() throws {
    let habit = try F.habit(reminder: .single(try F.time("08:00")))
    let berlin = try schedule("Europe/Berlin")
    for days in [0, -3] {
      let error = #expect(throws: ValidationError.self) {
        try berlin.occurrences(of: habit, entries: [], after: Date(timeIntervalSince1970: 0), days: days)
      }
      #expect(error?.field == "days")
    }
  }

  @Test func archivedHabitsAndNoReminderProduceNothing() throws {
    let now = try F.instant("2026-06-10T00:00:00Z")
    let archived = try F.habit(reminder: .single(try F.time("08:00")), archived: true)
    let silent = try F.habit(reminder: .none)
    #expect(try schedule("Europe/Berlin").occurrences(of: archived, entries: [], after: now, days: 7).isEmpty)
    #expect(try schedule("Europe/Berlin").occurrences(of: silent, entries: [], after: now, days: 7).isEmpty)
  }

  @Test func doneTodaySilencesOnlyTheRestOfToday() throws {
    let habit = try F.habit(reminder: try F.periodic("08:00", "22:00", every: 2))
    let today = try F.day("2026-06-10")
    let now = try F.instant("2026-06-10T12:30:00+02:00")
    let done = [HabitEntry(day: today, status: .done)]
    let found = try schedule("Europe/Berlin").occurrences(of: habit, entries: done, after: now, days: 2)
    #expect(found.count == 8)
    #expect(found.allSatisfy { $0.day == today.adding(days: 1) })
    let skipped = [HabitEntry(day: today, status: .skipped)]
    let stillDue = try schedule("Europe/Berlin").occurrences(of: habit, entries: skipped, after: now, days: 2)
    #expect(stillDue.count == 5 + 8, "a skipped day still gets its reminders")
  }

  @Test func statusesByDayWorkLikeEntries() throws {
    let habit = try F.habit(reminder: .single(try F.time("09:00")))
    let today = try F.day("2026-06-10")
    let now = try F.instant("2026-06-10T06:00:00+02:00")
    let found = try schedule("Europe/Berlin").occurrences(
      of: habit, statuses: [today: .done, today.adding(days: 1): .skipped], after: now, days: 3)
    #expect(wallTimes(found) == ["2026-06-11 09:00", "2026-06-12 09:00"])
  }

  @Test func aMetWeeklyGoalSilencesTheRestOfThatWeekOnly() throws {
    let habit = try F.habit(reminder: .single(try F.time("07:00")), frequency: .weekly(targetPerWeek: 2))
    let monday = try F.day("2026-03-02")
    let entries = [HabitEntry(day: monday, status: .done), HabitEntry(day: monday.adding(days: 1), status: .done)]
    let wednesday = try F.instant("2026-03-04T05:00:00-05:00")
    let found = try schedule("America/New_York", firstWeekday: .monday)
      .occurrences(of: habit, entries: entries, after: wednesday, days: 7)
    // Wednesday to Sunday are quiet; the next week starts on Monday 2026-03-09.
    #expect(wallTimes(found) == ["2026-03-09 07:00", "2026-03-10 07:00"])
    // With weeks starting on Sunday, Sunday 2026-03-08 opens a new week and is due again.
    let sundayWeeks = try schedule("America/New_York", firstWeekday: .sunday)
      .occurrences(of: habit, entries: entries, after: wednesday, days: 7)
    #expect(wallTimes(sundayWeeks) == ["2026-03-08 07:00", "2026-03-09 07:00", "2026-03-10 07:00"])
  }

  @Test func anEarlyMorningTimeBelongsToThePreviousDay() throws {
    let habit = try F.habit(reminder: .single(try F.time("01:00")))
    let sunday = try F.day("2026-06-14")
    let lateSunday = try F.instant("2026-06-14T23:00:00+02:00")
    let found = try schedule("Europe/Berlin", daySwitchHour: 3)
      .occurrences(of: habit, entries: [], after: lateSunday, days: 1)
    #expect(found.map(\.day) == [sunday])
    #expect(found.map(\.instant) == [try F.instant("2026-06-15T01:00:00+02:00")])
    let doneSunday = try schedule("Europe/Berlin", daySwitchHour: 3)
      .occurrences(of: habit, entries: [HabitEntry(day: sunday, status: .done)], after: lateSunday, days: 1)
    #expect(doneSunday.isEmpty, "marking Sunday done silences its 01:00 on Monday's date")
  }

  @Test(arguments: 0...6)
  func everySwitchHourOrdersTheDayFromTheSwitchHour(switchHour: Int) throws {
    let habit = try F.habit(reminder: try F.periodic("00:30", "23:30", every: 3))
    let day = try F.day("2026-06-10")
    let calendar = try F.calendar("Asia/Kolkata", daySwitchHour: switchHour)
    let dayStart = calendar.instant(of: try WallTime(hour: switchHour), on: day)
    let found = try ReminderSchedule(calendar: calendar)
      .occurrences(of: habit, entries: [], after: dayStart, days: 1)
    let hours = [0, 3, 6, 9, 12, 15, 18, 21]
    let expectedOrder = hours.filter { $0 >= switchHour } + hours.filter { $0 < switchHour }
    #expect(found.map(\.time.hour) == expectedOrder)
    #expect(found.allSatisfy { $0.day == day })
    #expect(found.allSatisfy { calendar.day(containing: $0.instant) == day })
    #expect(zip(found, found.dropFirst()).allSatisfy { $0.instant < $1.instant })
  }

  @Test func aSpringForwardGapFiresOnceAtTheTransition() throws {
    let habit = try F.habit(reminder: try F.periodic("00:00", "04:00", every: 1))
    let found = try schedule("America/New_York").occurrences(
      of: habit, entries: [], after: try F.instant("2026-03-07T23:00:00-05:00"), days: 2)
    let sunday = found.filter { $0.day == (try? F.day("2026-03-08")) }
    #expect(sunday.map(\.time.description) == ["00:00", "01:00", "02:00", "04:00"])
    #expect(try sunday.map(\.instant) == [
      F.instant("2026-03-08T00:00:00-05:00"), F.instant("2026-03-08T01:00:00-05:00"),
      F.instant("2026-03-08T03:00:00-04:00"), F.instant("2026-03-08T04:00:00-04:00"),
    ])
  }

  @Test func berlinsGapAndOverlap() throws {
    let habit = try F.habit(reminder: try F.periodic("01:30", "03:30", every: 1))
    let march = try schedule("Europe/Berlin").occurrences(
      of: habit, entries: [], after: try F.instant("2026-03-29T00:00:00+01:00"), days: 1)
    #expect(try march.map(\.instant) == [
      F.instant("2026-03-29T01:30:00+01:00"), F.instant("2026-03-29T03:00:00+02:00"),
      F.instant("2026-03-29T03:30:00+02:00"),
    ])
    let october = try schedule("Europe/Berlin").occurrences(
      of: habit, entries: [], after: try F.instant("2026-10-25T00:00:00+02:00"), days: 1)
    #expect(try october.map(\.instant) == [
      F.instant("2026-10-25T01:30:00+02:00"), F.instant("2026-10-25T02:30:00+02:00"),
      F.instant("2026-10-25T03:30:00+01:00"),
    ])
  }

  @Test func aFallBackOverlapFiresEachTimeOnce() throws {
    let habit = try F.habit(reminder: try F.periodic("00:00", "03:00", every: 1))
    let found = try schedule("America/New_York").occurrences(
      of: habit, entries: [], after: try F.instant("2026-10-31T23:00:00-04:00"), days: 2)
    #expect(try found.filter { $0.day == (try F.day("2026-11-01")) }.map(\.instant) == [
      F.instant("2026-11-01T00:00:00-04:00"), F.instant("2026-11-01T01:00:00-04:00"),
      F.instant("2026-11-01T02:00:00-05:00"), F.instant("2026-11-01T03:00:00-05:00"),
    ])
  }

  @Test func lordHowesHalfHourShifts() throws {
    let habit = try F.habit(reminder: try F.periodic("01:15", "02:45", every: 1))
    let october = try schedule("Australia/Lord_Howe").occurrences(
      of: habit, entries: [], after: try F.instant("2026-10-04T00:00:00+10:30"), days: 1)
    #expect(try october.map(\.instant) == [
      F.instant("2026-10-04T01:15:00+10:30"), F.instant("2026-10-04T02:30:00+11:00"),
    ])
    let april = try schedule("Australia/Lord_Howe").occurrences(
      of: habit, entries: [], after: try F.instant("2026-04-05T00:00:00+11:00"), days: 1)
    #expect(try april.map(\.instant) == [
      F.instant("2026-04-05T01:15:00+11:00"), F.instant("2026-04-05T02:15:00+10:30"),
    ])
  }

  @Test func samoasSkippedDayFiresOnceAtTheStartOfTheNextDate() throws {
    let habit = try F.habit(reminder: try F.periodic("08:00", "22:00", every: 2))
    let found = try schedule("Pacific/Apia").occurrences(
      of: habit, entries: [], after: try F.instant("2011-12-29T21:00:00-10:00"), days: 3)
    #expect(wallTimes(found) == [
      "2011-12-29 22:00", "2011-12-30 08:00",
      "2011-12-31 08:00", "2011-12-31 10:00", "2011-12-31 12:00", "2011-12-31 14:00",
      "2011-12-31 16:00", "2011-12-31 18:00", "2011-12-31 20:00", "2011-12-31 22:00",
    ])
    #expect(found[1].instant == (try F.instant("2011-12-31T00:00:00+14:00")))
  }

  @Test func samoasSkippedDayCollapsesWithTheNextMidnight() throws {
    let habit = try F.habit(reminder: .single(try F.time("00:00")))
    let now = try F.instant("2011-12-29T12:00:00-10:00")
    let found = try schedule("Pacific/Apia").occurrences(of: habit, entries: [], after: now, days: 3)
    // 2011-12-30 00:00 and 2011-12-31 00:00 are one instant; it fires once, for the 30th.
    #expect(wallTimes(found) == ["2011-12-30 00:00"])
    let thirtiethDone = [HabitEntry(day: try F.day("2011-12-30"), status: .done)]
    let afterDone = try schedule("Pacific/Apia").occurrences(of: habit, entries: thirtiethDone, after: now, days: 3)
    #expect(wallTimes(afterDone) == ["2011-12-31 00:00"])
    #expect(afterDone.first?.instant == found.first?.instant)
  }

  @Test func mergesAUsersHabitsByInstantThenListOrder() throws {
    let eight = Reminder.single(try F.time("08:00"))
    let walk = try F.habit("Walk", reminder: eight, sortOrder: 2)
    let read = try F.habit("Read", reminder: try F.periodic("07:00", "09:00", every: 1), sortOrder: 1)
    let water = try F.habit("Water", reminder: eight, sortOrder: 1)
    let old = try F.habit("Old", reminder: eight, archived: true)
    let today = try F.day("2026-06-10")
    let found = try schedule("Europe/Berlin").occurrences(
      of: [walk, water, old, read], entries: [read.id: [HabitEntry(day: today, status: .done)]],
      after: try F.instant("2026-06-10T06:00:00+02:00"), days: 2)
    let names = [walk.id: "Walk", read.id: "Read", water.id: "Water"]
    #expect(found.map { "\($0.day) \($0.time) \(names[$0.habitID]!)" } == [
      "2026-06-10 08:00 Water", "2026-06-10 08:00 Walk",
      "2026-06-11 07:00 Read",
      "2026-06-11 08:00 Read", "2026-06-11 08:00 Water", "2026-06-11 08:00 Walk",
      "2026-06-11 09:00 Read",
    ])
  }

  @Test func occurrencesCodeWithCamelCaseKeysAndTextDays() throws {
    let habitID = try #require(UUID(uuidString: "6F1C2A3B-4D5E-4F60-8A9B-0C1D2E3F4A5B"))
    let occurrence = ReminderOccurrence(
      instant: Date(timeIntervalSince1970: 0), day: try F.day("2024-02-29"), time: try F.time("08:00"),
      habitID: habitID)
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    encoder.dateEncodingStrategy = .iso8601
    let json = String(decoding: try encoder.encode(occurrence), as: UTF8.self)
    #expect(json == #"{"day":"2024-02-29","habitID":"6F1C2A3B-4D5E-4F60-8A9B-0C1D2E3F4A5B","instant":"1970-01-01T00:00:00Z","time":"08:00"}"#)
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    #expect(try decoder.decode(ReminderOccurrence.self, from: Data(json.utf8)) == occurrence)
    #expect(occurrence.key.description == "6f1c2a3b-4d5e-4f60-8a9b-0c1d2e3f4a5b/2024-02-29/08:00")
  }
}
