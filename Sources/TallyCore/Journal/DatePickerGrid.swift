/// The date picker grid ready to draw: its layout and one cell per day, row by row.
public struct DatePickerGrid: Hashable, Codable, Sendable {
  public let layout: DatePickerGridLayout
  public let cells: [DateCell]

  public init(
    layout: DatePickerGridLayout, today: Day, selectedDay: Day, activity: JournalActivity,
    calendar: DayCalendar, showGridDates: Bool
  ) {
    self.layout = layout
    self.cells = layout.days(today: today).enumerated().map { index, day in
      DateCell(
        day: day, today: today, selectedDay: selectedDay, activity: activity, calendar: calendar,
        showGridDates: showGridDates, centre: layout.centre(ofCell: index))
    }
  }
}
