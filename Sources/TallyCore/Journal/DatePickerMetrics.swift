/// The date picker's fixed measures, in points (SPEC 5), shared by the grid layout, the
/// circle style and the date row so each number lives in one place.
public enum DatePickerMetrics {
  /// Side of every circle's hit area, and the diameter of its ring.
  public static let cellSize = 22.0
  /// Spacing between circles where nothing adapts it: the date row.
  public static let baseSpacing = 12.0
  public static let rows = 6
  public static let sidePadding = 16.0
  public static let columnRange = 7...14
  public static let spacingRange = 8.0...20.0
  /// The grid's last day is this many days after today.
  public static let daysAfterToday = 4

  public static let ringLineWidth = 2.0
  public static let baseDiameter = 18.0
  public static let futureBaseDiameter = 8.0
  public static let entryDiameter = 18.0
  public static let chatDotDiameter = 8.0
  public static let dayNumberFontSize = 8.0
}
