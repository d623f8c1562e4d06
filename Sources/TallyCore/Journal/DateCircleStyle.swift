/// Everything needed to draw one date circle, as six layers from bottom to top (SPEC 5).
///
/// Resolved once here so the Apple app, the web page and the terminal draw the same circle
/// without each re-deriving the precedence: base state, then selection, then entry.
/// A missing layer is `nil`.
public struct DateCircleStyle: Hashable, Codable, Sendable {
  public struct Disc: Hashable, Codable, Sendable {
    public let diameter: Double
    public let color: SemanticColor
  }

  public struct Ring: Hashable, Codable, Sendable {
    public let diameter: Double
    public let lineWidth: Double
    public let color: SemanticColor
  }

  public enum FontWeight: String, Hashable, Codable, Sendable {
    case medium
  }

  public struct DayNumber: Hashable, Codable, Sendable {
    public let fontSize: Double
    public let weight: FontWeight
    public let color: SemanticColor
  }

  /// Nearly transparent rather than clear, so every circle takes touches the same way.
  public let hitArea: Disc
  public let ring: Ring?
  public let base: Disc
  public let entryFill: Disc?
  public let chatDot: Disc?
  public let dayNumber: DayNumber?

  public init(
    tense: DayTense, isSelected: Bool, hasEntry: Bool, hasChat: Bool, showGridDates: Bool
  ) {
    let metrics = DatePickerMetrics.self
    let entryColor = SemanticColor.hex(.entry)
    hitArea = Disc(diameter: metrics.cellSize, color: .white(opacity: 0.01))

    let ringColor: SemanticColor? =
      isSelected ? .hex(.selection) : tense == .today ? .grey(opacity: 0.8) : nil
    ring = ringColor.map { Ring(diameter: metrics.cellSize, lineWidth: metrics.ringLineWidth, color: $0) }

    base = Disc(
      diameter: tense == .future ? metrics.futureBaseDiameter : metrics.baseDiameter,
      color: .grey(opacity: 0.15))
    entryFill = hasEntry ? Disc(diameter: metrics.entryDiameter, color: entryColor) : nil
    chatDot =
      hasChat && !hasEntry && tense != .future
      ? Disc(diameter: metrics.chatDotDiameter, color: entryColor) : nil

    let textColor: SemanticColor = hasEntry ? .white(opacity: 1) : tense == .future ? .secondary : .primary
    dayNumber =
      tense == .today || showGridDates
      ? DayNumber(fontSize: metrics.dayNumberFontSize, weight: .medium, color: textColor) : nil
  }

  /// The six flags as the design names them; see ``DayTense/init(isToday:isFuture:)``.
  public init(
    isToday: Bool, isFuture: Bool, isSelected: Bool, hasEntry: Bool, hasChat: Bool,
    showGridDates: Bool
  ) {
    self.init(
      tense: DayTense(isToday: isToday, isFuture: isFuture), isSelected: isSelected,
      hasEntry: hasEntry, hasChat: hasChat, showGridDates: showGridDates)
  }
}
