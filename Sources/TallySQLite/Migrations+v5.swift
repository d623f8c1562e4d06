import GRDB
import TallyCore

extension Migrations {
  /// Habit names are unique per user as ``NameKey`` compares them, and the database keeps it
  /// so: racing clients cannot both create "Read" (issue 17). The key is Swift's, so it is a
  /// stored column the store fills, with a unique index on (user, key).
  ///
  /// Files may already hold habits whose names clash. Every row is kept: per user, in list
  /// order (`sort_order`, then id), the first keeps its name and each later one becomes
  /// "Name (2)", "Name (3)", … — the first number whose key is free (docs/storage.md).
  static func v5(_ db: Database) throws {
    try db.execute(sql: "ALTER TABLE habits ADD COLUMN name_key TEXT NOT NULL DEFAULT ''")
    let rows = try Row.fetchAll(db, sql: "SELECT id, user_id, name FROM habits ORDER BY user_id, sort_order, id")
    var taken: Set<[String]> = []
    for row in rows {
      let id: String = row["id"], user: String = row["user_id"], name: String = row["name"]
      let (newName, key) = freeName(name, user: user, taken: taken)
      taken.insert([user, key])
      try db.execute(
        sql: "UPDATE habits SET name = ?, name_key = ? WHERE id = ?", arguments: [newName, key, id])
    }
    try db.execute(sql: "CREATE UNIQUE INDEX habits_by_name_key ON habits(user_id, name_key)")
  }

  /// `name`, or the first "name (n)" from 2 whose key `user` does not have yet. A name at the
  /// length limit loses characters at its end to make room for the number.
  static func freeName(_ name: String, user: String, taken: Set<[String]>) -> (name: String, key: String) {
    var candidate = name
    var number = 1
    while taken.contains([user, NameKey.comparisonKey(candidate)]) {
      number += 1
      let suffix = " (\(number))"
      candidate = String(name.prefix(Habit.nameLengths.upperBound - suffix.count)) + suffix
    }
    return (candidate, NameKey.comparisonKey(candidate))
  }
}
