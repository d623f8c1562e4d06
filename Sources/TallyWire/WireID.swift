import Foundation
import TallyCore

/// Ids on the wire are lower-case UUID text (`UUID.storeText`); reading one back checks it.
public enum WireID {
  /// The UUID `text` spells, or a validation error naming `field`.
  public static func uuid(_ text: String, field: String) throws(ValidationError) -> UUID {
    guard let uuid = UUID(uuidString: text) else {
      throw ValidationError(field: field, rule: "must be a UUID, not '\(text)'")
    }
    return uuid
  }
}
