/// The sizes of a day cell's centred provider logo for a given cell width (SPEC 6).
///
/// The logo sits in a circle on a light disc so dark and transparent logos both read on the
/// dark purple theme; the padding keeps artwork off the disc's edge.
public struct LogoGeometry: Hashable, Sendable {
  public static let widthFraction = 0.6
  public static let maximumDiameter = 48.0
  public static let paddingFraction = 0.1

  /// The disc's diameter: min(cellWidth · 0.6, 48).
  public let diameter: Double
  /// Space between the disc's edge and the logo image on every side: 10% of the diameter.
  public let padding: Double
  /// The logo image's side, inside the padding.
  public let imageSide: Double
  /// Half the diameter: the disc is a circle.
  public let cornerRadius: Double

  public init(cellWidth: Double) throws(ValidationError) {
    guard cellWidth.isFinite, cellWidth >= 0 else {
      throw ValidationError(field: "cellWidth", rule: "must be a finite width of 0 or more, not \(cellWidth)")
    }
    diameter = min(cellWidth * LogoGeometry.widthFraction, LogoGeometry.maximumDiameter)
    padding = diameter * LogoGeometry.paddingFraction
    imageSide = diameter - 2 * padding
    cornerRadius = diameter / 2
  }
}
