import Foundation
import HTTPTypes
import HummingbirdTesting
import TallyCore
import TallyHTTP
import TallyServer
import TallyServerTesting
import TallyStore
import Testing

/// Measurable habits on the web pages (issue 15); today is 2026-03-08.
@Suite struct MeasurablePageTests {
  @Test func theFormMakesAMeasurableHabitAndRefusesAZeroGoal() async throws {
    let server = try TestServer()
    try await server.test { client in
      let owner = try await client.setUpOwner()
      let user = try await client.userID(owner)
      let fields = [
        ("name", "Run"), ("color", "#06B6D4"), ("frequency", "custom"), ("schedule", "1 in 3 days"),
        ("kind", "measurable"), ("goal", "5.5"), ("unit", "km"), ("direction", "atLeast"), ("about", "Flat route"),
        ("reminder", "none"),
      ]
      let made = try await client.post("/habits", form: fields, headers: owner)
      #expect(made.status == .seeOther, "\(made.text)")
      let habit = try #require(try await server.store.habits(for: user, includingArchived: false).first)
      #expect(habit.frequency == .timesInDays(times: 1, days: 3))
      #expect(habit.measure == (try Measure(unit: "km", target: Amount(thousandths: 5_500))))
      #expect(habit.description == "Flat route")

      let zero = try await client.post(
        "/habits", form: [("name", "Walk"), ("kind", "measurable"), ("goal", "0"), ("reminder", "none")], headers: owner)
      #expect(zero.status == .unprocessableContent)
      #expect(zero.text.contains("more than 0"))
      #expect(try await server.store.habits(for: user, includingArchived: true).count == 1)
      let edit = try await client.fetch("/habits/\(habit.id.storeText)/edit", headers: owner)
      #expect(edit.text.contains("value=\"5.5\""))
      #expect(edit.text.contains("value=\"1 in 3 days\""))
    }
  }

  @Test func todayTakesAnAmountAndTheHabitPageShadesAndCharts() async throws {
    let server = try TestServer()
    try await server.test { client in
      let owner = try await client.setUpOwner()
      let user = try await client.userID(owner)
      let created = try await client.addHabit(
        "Run", ["measure": ["unit": "km", "target": 4], "createdDay": "2026-03-01"], headers: owner)
      let id = try #require(created["id"] as? String)
      let habitID = try #require(UUID(uuidString: id))

      let today = try await client.fetch("/today", headers: owner)
      #expect(today.text.contains("type=\"number\""))
      #expect(today.text.contains("<label for=\"amount-\(id)\" class=\"visually-hidden\">Run on "))
      let saved = try await client.post(
        "/habits/\(id)/mark", form: [("day", "2026-03-08"), ("status", "done"), ("amount", "2"), ("back", "/today")],
        headers: owner)
      #expect(saved.status == .seeOther)
      _ = try await client.post(
        "/habits/\(id)/mark", form: [("day", "2026-03-07"), ("status", "done"), ("amount", "4.5")], headers: owner)
      #expect(
        try await server.store.entries(of: habitID, for: user) == [
          HabitEntry(day: Day("2026-03-07")!, status: .done, amount: Amount(thousandths: 4_500)),
          HabitEntry(day: Day("2026-03-08")!, status: .done, amount: Amount(2)),
        ])
      let negative = try await client.post(
        "/habits/\(id)/mark", form: [("day", "2026-03-06"), ("status", "done"), ("amount", "-1")], headers: owner)
      #expect(negative.status == .unprocessableContent)
      let beforeAll = try await client.post("/habits/\(id)/mark", form: [("day", "0000-03-06"), ("status", "done")], headers: owner)
      #expect(beforeAll.status == .badRequest)
      #expect(try await client.fetch("/today", headers: owner).text.contains("value=\"2\""))

      // A tap on a measurable day opens it rather than clearing its amount.
      let tap = try await client.post("/habits/\(id)/toggle", form: [("day", "2026-03-08")], headers: owner)
      #expect(tap.location == "/habits/\(id)?day=2026-03-08#day-editor")
      #expect(try await server.store.entries(of: habitID, for: user).count == 2)

      let page = try await client.fetch("/habits/\(id)?day=2026-03-08&width=600", headers: owner)
      #expect(page.text.contains("data-measurable=\"true\""))
      #expect(page.text.contains("fill-opacity=\"0.6\""), "2 of 4 km is half the target")
      #expect(page.text.contains("aria-label=\"Sunday 8 March, 2\""))
      #expect(page.text.contains("id=\"amount\" name=\"amount\""))
      for period in ["week", "month", "year"] {
        #expect(page.text.contains("Amounts per \(period)"))
      }
      #expect(page.text.contains("<caption>Amounts per month</caption>"))
      #expect(page.text.contains("March 2026: 6.5 km"))
    }
  }

  /// A count without a unit (glasses of water, say) names none: no "in" on the day editor's
  /// label, no empty unit beside Today's field.
  @Test func aHabitWithoutAUnitNamesNone() async throws {
    let server = try TestServer()
    try await server.test { client in
      let owner = try await client.setUpOwner()
      let created = try await client.addHabit(
        "Water", ["measure": ["unit": "", "target": 8], "createdDay": "2026-03-01"], headers: owner)
      let id = try #require(created["id"] as? String)

      let today = try await client.fetch("/today", headers: owner).text
      #expect(today.contains("id=\"amount-\(id)\""))
      #expect(!today.contains("class=\"unit\""))
      let page = try await client.fetch("/habits/\(id)?day=2026-03-08&width=600", headers: owner).text
      #expect(page.contains("<label for=\"amount\">Amount <span class=\"help\">(with Done)</span></label>"))
    }
  }
}
