/// The Today view's display switches (SPEC 5).
public struct TodaySettings: Hashable, Sendable {
  public var showDatePickerGrid: Bool
  /// Day numbers on every grid circle; today's number shows either way.
  public var showGridDates: Bool

  public init(showDatePickerGrid: Bool = true, showGridDates: Bool = false) {
    self.showDatePickerGrid = showDatePickerGrid
    self.showGridDates = showGridDates
  }
}

// A missing switch keeps its default, so settings saved before a switch existed still load.
extension TodaySettings: Codable {
  private enum CodingKeys: String, CodingKey { case showDatePickerGrid, showGridDates }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let defaults = TodaySettings()
    self.init(
      showDatePickerGrid: try container.decodeIfPresent(Bool.self, forKey: .showDatePickerGrid)
        ?? defaults.showDatePickerGrid,
      showGridDates: try container.decodeIfPresent(Bool.self, forKey: .showGridDates)
        ?? defaults.showGridDates)
  }
}
