import Foundation
import TallyCore
import Testing

@Suite struct HabitValidationTests {
  func make(
    name: String = "Read", icon: String? = nil, group: String? = nil,
    frequency: Frequency = .daily, reminder: Reminder = .none
  ) throws(ValidationError) -> Habit {
    try Habit(
      id: UUID(), name: name, icon: icon, group: group, createdDay: day("2026-03-01"),
      frequency: frequency, reminder: reminder)
  }

  @Test func namesAreTrimmedAndBounded() throws {
    #expect(try make(name: "  Read  ").name == "Read")
    #expect(try make(name: String(repeating: "é", count: 100)).name.count == 100)
    #expect(throws: ValidationError.self) { try make(name: "   ") }
    do {
      _ = try make(name: String(repeating: "a", count: 101))
      Issue.record("a 101-character name was accepted")
    } catch {
      #expect(error.field == "name")
      #expect(error.description.contains("1 to 100 characters"))
    }
  }

  @Test func weeklyTargetsRunFromOneToSix() throws {
    for target in 1...6 {
      #expect(try make(frequency: .weekly(targetPerWeek: target)).frequency == .weekly(targetPerWeek: target))
    }
    for target in [0, 7, -1] {
      #expect(throws: ValidationError(
        field: "targetPerWeek", rule: "must be from 1 to 6 (7 a week is daily), not \(target)", kind: .outOfRange,
        values: ["min": "1", "max": "6", "value": "\(target)"]))
      {
        try make(frequency: .weekly(targetPerWeek: target))
      }
    }
  }

  @Test func iconsAreOneEmojiOrASymbolName() throws {
    #expect(try make(icon: "📚").icon == "📚")
    #expect(try make(icon: "👩‍💻").icon == "👩‍💻")  // one grapheme, several scalars
    #expect(try make(icon: "figure.walk").icon == "figure.walk")
    #expect(try make(icon: " ").icon == nil)
    for bad in ["📚📚", "Figure Walk", "a..b", ".walk", "x" + String(repeating: "y", count: 64)] {
      #expect(throws: ValidationError.self, "\(bad)") { try make(icon: bad) }
    }
  }

  @Test func groupsAreOptionalAndTrimmed() throws {
    #expect(try make(group: "  Health ").group == "Health")
    #expect(try make(group: "").group == nil)
    #expect(throws: ValidationError.self) { try make(group: String(repeating: "g", count: 51)) }
  }

  @Test func periodicRemindersNeedAnOrderedRangeAndAnInterval() throws {
    let eight = try WallTime(hour: 8)
    let ten = try WallTime(hour: 22)
    let reminder = try make(reminder: .periodic(start: eight, end: ten, everyHours: 2)).reminder
    #expect(reminder.times.count == 8)
    #expect(reminder.times.last == ten)
    #expect(throws: ValidationError.self) {
      try make(reminder: .periodic(start: ten, end: eight, everyHours: 2))
    }
    #expect(throws: ValidationError.self) {
      try make(reminder: .periodic(start: eight, end: ten, everyHours: 0))
    }
  }

  @Test func wallTimesParseStrictly() throws {
    #expect(try WallTime(parsing: "8:05").description == "08:05")
    for bad in ["24:00", "8", "08:5", "08:60", "ab:cd", "-1:00"] {
      #expect(throws: ValidationError.self, "\(bad)") { try WallTime(parsing: bad) }
    }
  }

  @Test func decodingAppliesTheSameRules() throws {
    let good = try make(icon: "📚", group: "Mind", frequency: .weekly(targetPerWeek: 3))
    let data = try JSONEncoder().encode(good)
    #expect(try JSONDecoder().decode(Habit.self, from: data) == good)
    let bad = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\"targetPerWeek\":3", with: "\"targetPerWeek\":9")
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(Habit.self, from: Data(bad.utf8)) }
  }

  @Test func futureDaysCannotBeMarked() throws {
    try DayMark.checkMarkable(day("2026-03-08"), today: day("2026-03-08"))
    #expect(throws: ValidationError.self) {
      try DayMark.checkMarkable(day("2026-03-09"), today: day("2026-03-08"))
    }
  }
}

@Suite struct SettingsTests {
  @Test func defaultsFollowSPEC() throws {
    let settings = UserSettings(timeZone: "Europe/Berlin")
    let calendar = try settings.dayCalendar()
    #expect(calendar.daySwitchHour == 0)
    #expect(calendar.firstWeekday == .sunday)
    #expect(settings.locale == "en_US")
    #expect(settings.today == TodaySettings())
  }

  @Test func badSettingsNameTheField() {
    for (settings, field) in [
      (UserSettings(timeZone: "Mars/Olympus"), "timeZone"),
      (UserSettings(timeZone: "UTC", daySwitchHour: 7), "daySwitchHour"),
      (UserSettings(timeZone: "UTC", locale: "xx_NOPE"), "locale"),
    ] {
      #expect(throws: ValidationError.self) { try settings.validated() }
      do { _ = try settings.validated() } catch { #expect(error.field == field) }
    }
  }

  @Test func weekdaysCodeAsLowercaseNames() throws {
    let data = try JSONEncoder().encode(UserSettings(timeZone: "UTC", firstWeekday: .monday))
    #expect(String(decoding: data, as: UTF8.self).contains(#""firstWeekday":"monday""#))
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(Weekday.self, from: Data(#""funday""#.utf8))
    }
  }
}
