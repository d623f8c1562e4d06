/// Sizing shared by the contribution grids.
public enum GridGeometry {
  /// How many week columns of `cellSize` with `gap` between them fit in `width`; at least one.
  public static func weekCount(width: Double, cellSize: Double, gap: Double) -> Int {
    guard width.isFinite, cellSize + gap > 0 else { return 1 }
    return max(1, Int(((width + gap) / (cellSize + gap)).rounded(.down)))
  }

  /// The start of each of `weekCount` weeks, oldest first, ending with the week holding `today`.
  public static func weekStarts(weekCount: Int, today: Day, firstWeekday: Weekday) -> [Day] {
    let lastWeek = today.startOfWeek(firstWeekday: firstWeekday)
    return (0..<max(1, weekCount)).reversed().map { lastWeek.adding(days: -7 * $0) }
  }
}
