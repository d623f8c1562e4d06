/// How many circles fit across a given width, how far apart they sit, and which day each one
/// shows (SPEC 5).
///
/// Columns and spacing are chosen together: the most columns whose spacing stays readable
/// (8–20 pt). Rows are spaced like columns so the grid stays square and a drag moves the same
/// distance per day either way.
public struct DatePickerGridLayout: Hashable, Sendable {
  /// The width this layout was made for, padding included.
  public let width: Double
  public let columns: Int
  public let spacing: Double
  /// Extra space before the first column, beyond the side padding: non-zero only when the
  /// width is too wide for even 14 columns and the grid is centred.
  public let leadingOffset: Double

  public var rows: Int { DatePickerMetrics.rows }
  public var dayCount: Int { columns * rows }

  /// Fits the grid to `width` points. Widths must be finite and not negative.
  public init(width: Double) throws(ValidationError) {
    guard width.isFinite, width >= 0 else {
      throw ValidationError(field: "width", rule: "must be a number of points, 0 or more, not \(width)")
    }
    let metrics = DatePickerMetrics.self
    let available = width - 2 * metrics.sidePadding
    func spacing(_ columns: Int) -> Double {
      (available - metrics.cellSize * Double(columns)) / Double(columns - 1)
    }
    let columnRange = metrics.columnRange
    if let fitting = columnRange.reversed().first(where: { metrics.spacingRange.contains(spacing($0)) }) {
      self.init(width: width, columns: fitting, spacing: spacing(fitting), leadingOffset: 0)
    } else if spacing(columnRange.upperBound) > metrics.spacingRange.upperBound {
      let columns = columnRange.upperBound
      let spacing = metrics.spacingRange.upperBound
      let used = metrics.cellSize * Double(columns) + spacing * Double(columns - 1)
      self.init(width: width, columns: columns, spacing: spacing, leadingOffset: (available - used) / 2)
    } else {
      let columns = columnRange.lowerBound
      self.init(width: width, columns: columns, spacing: max(0, spacing(columns)), leadingOffset: 0)
    }
  }

  private init(width: Double, columns: Int, spacing: Double, leadingOffset: Double) {
    self.width = width
    self.columns = columns
    self.spacing = spacing
    self.leadingOffset = leadingOffset
  }

  // MARK: Width changes

  /// Changes of a point or less are measurement noise (scroll bars, rounding) and would only
  /// make the grid flicker. The change is measured from the width this layout was made for,
  /// so slow drift still relayouts once it adds up to more than a point. A width that is not
  /// a number counts as a change, so ``adjusted(toWidth:)`` rejects it instead of keeping
  /// the old layout.
  public func needsRelayout(forWidth newWidth: Double) -> Bool {
    !(abs(newWidth - width) <= 1)
  }

  /// The layout to use at `newWidth`: this one when the change is a point or less.
  public func adjusted(toWidth newWidth: Double) throws(ValidationError) -> DatePickerGridLayout {
    needsRelayout(forWidth: newWidth) ? try DatePickerGridLayout(width: newWidth) : self
  }

  // MARK: Days

  /// The grid's days end at today + 4 and fill it row by row.
  public func firstDay(today: Day) -> Day {
    today.adding(days: DatePickerMetrics.daysAfterToday - (dayCount - 1))
  }

  public func days(today: Day) -> [Day] {
    let first = firstDay(today: today)
    return Array(first..<first.adding(days: dayCount))
  }

  // MARK: Geometry

  /// Distance from one circle's centre to the next, across or down.
  public var pitch: Double { DatePickerMetrics.cellSize + spacing }

  /// The left edge of the first column.
  public var gridLeft: Double { DatePickerMetrics.sidePadding + leadingOffset }

  public func centre(ofCell index: Int) -> GridPoint {
    let half = DatePickerMetrics.cellSize / 2
    return GridPoint(
      x: gridLeft + half + Double(index % columns) * pitch,
      y: half + Double(index / columns) * pitch)
  }

  /// The cell under a point, or `nil` outside the grid. Each circle owns its hit area plus
  /// half the gap around it, so a drag across a gap moves straight to the next day instead of
  /// dropping the selection; the grid's outer edge reaches half a gap beyond the circles.
  public func cell(at point: GridPoint) -> Int? {
    let column = ((point.x - gridLeft + spacing / 2) / pitch).rounded(.down)
    let row = ((point.y + spacing / 2) / pitch).rounded(.down)
    guard column >= 0, column < Double(columns), row >= 0, row < Double(rows) else { return nil }
    return Int(row) * columns + Int(column)
  }

  /// The day under a point, for taps and drag scrubbing.
  public func day(at point: GridPoint, today: Day) -> Day? {
    cell(at: point).map { firstDay(today: today).adding(days: $0) }
  }
}

// Only the width is read back: the rest follows from it, so a decoded layout is always one
// this type would have made.
extension DatePickerGridLayout: Codable {
  private enum CodingKeys: String, CodingKey {
    case width, columns, rows, spacing, leadingOffset, dayCount
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let width = try container.decode(Double.self, forKey: .width)
    do {
      try self.init(width: width)
    } catch {
      throw DecodingError.dataCorruptedError(
        forKey: .width, in: container, debugDescription: error.description)
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(width, forKey: .width)
    try container.encode(columns, forKey: .columns)
    try container.encode(rows, forKey: .rows)
    try container.encode(spacing, forKey: .spacing)
    try container.encode(leadingOffset, forKey: .leadingOffset)
    try container.encode(dayCount, forKey: .dayCount)
  }
}
