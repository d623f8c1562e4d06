import Foundation
import TallyCore

/// The new order of a user's habits: the moved ones first, then the rest as they were.
public enum HabitReordering {
  /// `current` is every habit id in list order.
  public static func order(_ current: [UUID], moving ids: [UUID]) throws(StoreError) -> [UUID] {
    let known = Set(current)
    var seen: Set<UUID> = []
    for id in ids {
      guard known.contains(id) else { throw .notFound(.habit(id)) }
      guard seen.insert(id).inserted else {
        throw .invalid(
          ValidationError(field: "order", rule: "must name each habit once, but \(id.storeText) appears twice"))
      }
    }
    return ids + current.filter { !seen.contains($0) }
  }
}

/// Rules a store checks on shows beyond what ``Show`` itself checks.
public enum ShowRules {
  /// A country lists each provider once: the provider id is its identity.
  public static func checkProviders(_ show: Show) throws(StoreError) {
    for (country, providers) in show.providers {
      var seen: Set<Int> = []
      for provider in providers where !seen.insert(provider.id).inserted {
        throw .conflict(
          "the show '\(show.title)' lists provider \(provider.id) twice in \(country)")
      }
    }
  }
}

/// The orders credential lists come back in.
public enum CredentialOrder {
  /// Newest first, then by id.
  public static func tokens(_ a: APIToken, _ b: APIToken) -> Bool {
    (b.createdAt, a.id.storeText) < (a.createdAt, b.id.storeText)
  }
}
