import Foundation
import HTTPTypes
import HummingbirdTesting
import TallyCore
import TallyHTTP
import TallyServer
import TallyServerTesting
import TallyStore
import Testing

/// Weekday schedules and pauses on the web pages (issue 55); today is 2026-03-08, a Sunday.
@Suite struct SchedulePageTests {
  @Test func theFormMakesAWeekdayHabitAndRefusesNoDaysOrAll() async throws {
    let server = try TestServer()
    try await server.test { client in
      let owner = try await client.setUpOwner()
      let user = try await client.userID(owner)
      let fields = [
        ("name", "Gym"), ("color", "#06B6D4"), ("frequency", "weekdays"), ("on-monday", "on"), ("on-wednesday", "on"),
        ("on-friday", "on"), ("kind", "yesNo"), ("reminder", "none"),
      ]
      let made = try await client.post("/habits", form: fields, headers: owner)
      #expect(made.status == .seeOther, "\(made.text)")
      let habit = try #require(try await server.store.habits(for: user, includingArchived: false).first)
      #expect(habit.frequency == .weekdays(try WeekdaySet([.monday, .wednesday, .friday])))
      let edit = try await client.fetch("/habits/\(habit.id.storeText)/edit", headers: owner)
      #expect(edit.text.contains(#"name="on-monday" checked"#))
      #expect(!edit.text.contains(#"name="on-tuesday" checked"#))
      let detail = try await client.fetch("/habits/\(habit.id.storeText)", headers: owner)
      #expect(detail.text.contains("Every Monday, Wednesday, and Friday"), "listed as the account's locale (en_US) lists")

      let none = try await client.post(
        "/habits", form: [("name", "Never"), ("frequency", "weekdays"), ("reminder", "none")], headers: owner)
      #expect(none.status == .unprocessableContent)
      #expect(none.text.contains("The weekdays must name at least one day."))
      let week = Weekday.allCases.map { ("on-\($0.name)", "on") }
      let all = try await client.post(
        "/habits", form: [("name", "Always"), ("frequency", "weekdays"), ("reminder", "none")] + week, headers: owner)
      #expect(all.status == .unprocessableContent)
      #expect(all.text.contains("all 7 is a daily habit"))
      #expect(try await server.store.habits(for: user, includingArchived: true).count == 1)
    }
  }

  @Test func aPausedHabitRestsOnTodayAndItsPageSaysSo() async throws {
    let server = try TestServer()
    try await server.test { client in
      let owner = try await client.setUpOwner()
      let user = try await client.userID(owner)
      let read = try #require(try await client.addHabit("Read", ["createdDay": "2026-03-01"], headers: owner)["id"] as? String)
      _ = try await client.addHabit(
        "Gym", ["frequency": ["type": "weekdays", "weekdays": ["monday"]], "createdDay": "2026-03-01"], headers: owner)
      let paused = try await client.post(
        "/pauses", form: [("habit", read), ("from", "2026-03-07"), ("back", "/habits/\(read)")], headers: owner)
      #expect(paused.status == .seeOther)
      #expect(try await server.store.pauses(for: user).map(\.from) == [Day("2026-03-07")!])

      let today = try await client.fetch("/today", headers: owner).text
      let rest = try #require(today.range(of: "Not due today"))
      // Both rest today: Read is paused, Gym is a Monday habit; neither is listed as due.
      #expect(today[rest.upperBound...].contains("Paused"))
      #expect(today[rest.upperBound...].contains("Not due on Sunday"))
      #expect(!today[..<rest.lowerBound].contains(">Read</a>"))

      let page = try await client.fetch("/habits/\(read)", headers: owner).text
      #expect(page.contains("Paused from Saturday 7 March until resumed"))
      #expect(page.contains(#"data-neutral="paused""#))
      #expect(page.contains(#"data-offline="resume""#))
      let resumed = try await client.post("/pauses/resume", form: [("habit", read), ("back", "/habits/\(read)")], headers: owner)
      #expect(resumed.status == .seeOther)
      #expect(try await server.store.pauses(for: user).first?.until == Day("2026-03-07")!)

      let vacation = try await client.post("/pauses", form: [("until", "2026-03-20"), ("back", "/today")], headers: owner)
      #expect(vacation.status == .seeOther)
      let onVacation = try await client.fetch("/today", headers: owner).text
      #expect(onVacation.contains("All habits paused from Sunday 8 March through Friday 20 March"))
      #expect(onVacation.contains("Resume all habits today"))
      let backwards = try await client.post(
        "/pauses", form: [("from", "2026-03-10"), ("until", "2026-03-09"), ("back", "/today")], headers: owner)
      #expect(backwards.status == .unprocessableContent)
      #expect(try await server.store.pauses(for: user).count == 2)
    }
  }
}
