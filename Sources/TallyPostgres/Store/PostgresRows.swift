import Foundation
import PostgresNIO
import TallyCore
import TallyStore

/// Rows read back into models, with errors that say which row is damaged (``Stored``): the
/// same rules SQLite's records check.
enum PostgresRows {
  static func text(_ row: PostgresRandomAccessRow, _ column: String) throws -> String {
    try row[column].decode(String.self)
  }

  static func optionalText(_ row: PostgresRandomAccessRow, _ column: String) throws -> String? {
    try row[column].decode(String?.self)
  }

  static func user(_ row: PostgresRandomAccessRow) throws -> User {
    let name = try text(row, "name")
    let weekdayName = try text(row, "first_weekday")
    guard let weekday = Weekday(name: weekdayName) else {
      throw StoreError.corrupt("user \(name) has first weekday '\(weekdayName)'")
    }
    let settings = UserSettings(
      timeZone: try text(row, "time_zone"), daySwitchHour: try row["day_switch_hour"].decode(Int.self),
      firstWeekday: weekday, locale: try text(row, "locale"),
      showDatePickerGrid: try row["show_date_picker_grid"].decode(Bool.self),
      showGridDates: try row["show_grid_dates"].decode(Bool.self),
      language: try Stored.language(try optionalText(row, "language"), "user \(name)"))
    let id = try row["id"].decode(UUID.self)
    return try Stored.valid("user \(name)") { () throws(ValidationError) in try User(id: id, name: name, settings: settings) }
  }

  static func habit(_ row: PostgresRandomAccessRow) throws -> Habit {
    let id = try row["id"].decode(UUID.self)
    let what = "habit \(id.storeText)"
    let createdDay = try Stored.day(try text(row, "created_day"), "\(what) created_day")
    let columns = StoredSchedule(
      frequency: try text(row, "frequency"), targetPerWeek: try row["target_per_week"].decode(Int?.self),
      scheduleTimes: try row["schedule_times"].decode(Int?.self), scheduleDays: try row["schedule_days"].decode(Int?.self),
      kind: try text(row, "kind"), unit: try optionalText(row, "unit"), target: try row["target"].decode(Int64?.self),
      targetDirection: try optionalText(row, "target_direction"), weekdays: try row["weekdays"].decode(Int?.self))
    let description = try optionalText(row, "description")
    let reminderText = try text(row, "reminder")
    let start = try optionalText(row, "reminder_start")
    let end = try optionalText(row, "reminder_end")
    let every = try row["reminder_every_hours"].decode(Int?.self)
    let name = try text(row, "name")
    let icon = try optionalText(row, "icon")
    let color = try text(row, "color")
    let group = try optionalText(row, "group_name")
    let archived = try row["archived"].decode(Bool.self)
    let sortOrder = try row["sort_order"].decode(Int.self)
    return try Stored.valid(what) { () throws(ValidationError) in
      func time(_ text: String?) throws(ValidationError) -> WallTime {
        try WallTime(parsing: text ?? "", field: "reminder time")
      }
      let reminder: Reminder =
        switch reminderText {
        case "single": .single(try time(start))
        case "periodic": .periodic(start: try time(start), end: try time(end), everyHours: every ?? 0)
        default: .none
        }
      return try Habit(
        id: id, name: name, icon: icon, color: HexColor(parsing: color), group: group,
        createdDay: createdDay, frequency: columns.schedule, reminder: reminder, archived: archived,
        sortOrder: sortOrder, measure: try columns.measure(), description: description)
    }
  }

  /// The entry in `row`'s columns `day`, `status`, `note` and `amount`, each after `prefix`.
  static func entry(_ row: PostgresRandomAccessRow, prefix: String = "") throws -> HabitEntry {
    let dayText = try text(row, prefix + "day")
    let statusText = try text(row, prefix + "status")
    guard let day = Day(dayText), let status = EntryStatus(rawValue: statusText) else {
      throw StoreError.corrupt("an entry on '\(dayText)' has status '\(statusText)'")
    }
    return HabitEntry(
      day: day, status: status, note: try optionalText(row, prefix + "note"),
      amount: try row[prefix + "amount"].decode(Int64?.self).map(Amount.init(thousandths:)))
  }

  static func journalEntry(_ row: PostgresRandomAccessRow) throws -> JournalEntry {
    let day = try Stored.day(try text(row, "day"), "journal entry day")
    let text = try text(row, "text")
    return try Stored.valid("journal entry of \(day)") { () throws(ValidationError) in try JournalEntry(day: day, text: text) }
  }

  static func chatMessage(_ row: PostgresRandomAccessRow) throws -> ChatMessage {
    let id = try row["id"].decode(UUID.self)
    let what = "chat message \(id.storeText)"
    let day = try Stored.day(try text(row, "day"), "\(what) day")
    let sentAt = try Stored.instant(try text(row, "sent_at"), "\(what) sent_at")
    let roleText = try text(row, "role")
    guard let role = ChatRole(rawValue: roleText) else { throw StoreError.corrupt("\(what) has role '\(roleText)'") }
    let text = try text(row, "text")
    return try Stored.valid(what) { () throws(ValidationError) in
      try ChatMessage(id: id, day: day, role: role, text: text, sentAt: sentAt)
    }
  }

  /// A show from its row and the rows of its providers.
  static func show(_ row: PostgresRandomAccessRow, providers: [PostgresRandomAccessRow]) throws -> Show {
    let id = try row["id"].decode(UUID.self)
    let what = "show \(id.storeText)"
    let statusText = try text(row, "status")
    guard let status = ShowStatus(rawValue: statusText) else { throw StoreError.corrupt("\(what) has status '\(statusText)'") }
    var listed: [(country: String, position: Int, provider: Provider)] = []
    for provider in providers {
      let providerID = try provider["provider_id"].decode(Int.self)
      let name = try text(provider, "name")
      let logoText = try optionalText(provider, "logo_url")
      var logo: URL?
      if let logoText {
        guard let url = URL(string: logoText) else { throw StoreError.corrupt("provider \(providerID) of \(what) has logo '\(logoText)'") }
        logo = url
      }
      listed.append(
        (
          try text(provider, "country"), try provider["position"].decode(Int.self),
          try Stored.valid("provider \(providerID) of \(what)") { () throws(ValidationError) in
            try Provider(id: providerID, name: name, logoURL: logo)
          }
        ))
    }
    var byCountry: [String: [Provider]] = [:]
    for item in listed.sorted(by: { ($0.country, $0.position) < ($1.country, $1.position) }) {
      byCountry[item.country, default: []].append(item.provider)
    }
    let title = try text(row, "title")
    let tmdbID = try row["tmdb_id"].decode(Int?.self)
    return try Stored.valid(what) { () throws(ValidationError) in
      try Show(id: id, title: title, status: status, providers: byCountry, tmdbID: tmdbID)
    }
  }

  static func episode(_ row: PostgresRandomAccessRow) throws -> Episode {
    let showID = try row["show_id"].decode(UUID.self)
    let season = try row["season"].decode(Int.self)
    let number = try row["number"].decode(Int.self)
    let what = "episode \(season)x\(number) of show \(showID.storeText)"
    let airDay = try Stored.day(try text(row, "air_day"), "\(what) air_day")
    let title = try text(row, "title")
    return try Stored.valid(what) { () throws(ValidationError) in
      try Episode(showID: showID, season: season, number: number, title: title, airDay: airDay)
    }
  }

  static func price(_ row: PostgresRandomAccessRow) throws -> Price {
    let country = try text(row, "country")
    let providerID = try row["provider_id"].decode(Int.self)
    let what = "price of provider \(providerID) in \(country)"
    let amountText = try text(row, "amount")
    guard let amount = Decimal(string: amountText, locale: Locale(identifier: "en_US_POSIX")) else {
      throw StoreError.corrupt("\(what) has amount '\(amountText)'")
    }
    let currency = try text(row, "currency")
    return try Stored.valid(what) { () throws(ValidationError) in
      try Price(country: country, providerID: providerID, amount: amount, currency: currency)
    }
  }
}
