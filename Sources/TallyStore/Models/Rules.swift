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

  /// `show`'s title is not another of the user's show titles (`titles`, by show id) as
  /// ``NameKey`` compares them (case and Unicode form do not count), the same rule as habit
  /// names. Every store checks it in the transaction that adds or renames the show, so every
  /// face (web, API, CLI) gives the one refusal. A show keeping its title passes, so two
  /// shows that share one from before the rule can still be edited; sync does not check it
  /// (two devices that each add a show offline keep both).
  public static func checkTitleFree(_ show: Show, among titles: [UUID: String]) throws(StoreError) {
    let key = NameKey.comparisonKey(show.title)
    if let held = titles[show.id], NameKey.comparisonKey(held) == key { return }
    guard titles.contains(where: { $0.key != show.id && NameKey.comparisonKey($0.value) == key }) else { return }
    throw titleTaken(show.title)
  }

  /// The one sentence for a show title that is taken.
  public static func titleTaken(_ title: String) -> StoreError {
    .conflict("you already have a show called '\(title)'")
  }
}

/// The orders credential lists come back in.
public enum CredentialOrder {
  /// Newest first, then by id.
  public static func tokens(_ a: APIToken, _ b: APIToken) -> Bool {
    (b.createdAt, a.id.storeText) < (a.createdAt, b.id.storeText)
  }
}

/// Rules for adding or changing a habit that need the user's other habits or their today:
/// checked the same way by `tally habit` and the API.
public enum HabitRules {
  /// A habit starts today or earlier, and on a day the stores keep.
  public static func checkCreatedDay(_ day: Day, today: Day) throws(ValidationError) {
    guard day <= today else {
      throw ValidationError(
        field: "created day", rule: "\(day) is after today (\(today)); a habit starts today or earlier", kind: .inFuture,
        values: ["day": "\(day)"])
    }
    try Day.checkKept(day, field: "created day")
  }

  /// `name` is not another of `habits`' names as ``NameKey`` compares them; `renaming` is the
  /// habit being changed, if any. The database enforces the same rule with a unique index;
  /// this check only words the refusal before a write is tried.
  public static func checkNameFree(_ name: String, among habits: [Habit], renaming: UUID? = nil)
    throws(StoreError)
  {
    let key = NameKey.comparisonKey(name)
    guard let taken = habits.first(where: { NameKey.comparisonKey($0.name) == key && $0.id != renaming }) else {
      return
    }
    throw nameTaken(name, existing: taken.name, renaming: renaming != nil)
  }

  /// The one refusal for changing a habit's kind once it has entries, in every store.
  public static func kindFixed(from old: String, to new: String) -> StoreError {
    .invalid(ValidationError(field: "kind", rule: "cannot change from \(old) to \(new) once days are marked"))
  }

  /// The one sentence for a name that is taken, whoever notices: this check or the index.
  /// `existing` is the name as stored, when known ("Read" when "read" was asked for).
  public static func nameTaken(_ name: String, existing: String? = nil, renaming: Bool) -> StoreError {
    let advice = renaming ? "choose another name" : "give the new one another name"
    return .conflict("a habit named '\(existing ?? name)' already exists; \(advice)")
  }
}
