import Foundation
import TallyCore
import TallyStore

/// Each kind's values as change fields and back. Fields are the JSON the model encodes to, so
/// a field added to a model travels through sync without a second list to keep in step;
/// reading fields back goes through the model's own validating initialiser.
public enum SyncFields {
  /// `value` as the fields of `kind`: the keys that identify it dropped, every field present
  /// (`null` where the model leaves a key out).
  public static func encode(_ value: some Encodable, kind: SyncKind) throws -> [String: SyncValue] {
    let object = try decoder.decode([String: SyncValue].self, from: encoder.encode(value))
    var fields: [String: SyncValue] = [:]
    for name in kind.fields {
      fields[name] = object[name] ?? .null
    }
    return fields
  }

  /// A model from complete fields plus the keys its id stands for.
  public static func decode<T: Decodable>(
    _ type: T.Type, _ fields: [String: SyncValue], adding keys: [String: SyncValue] = [:]
  ) throws -> T {
    let object = fields.merging(keys) { _, key in key }.filter { $0.value != .null }
    return try decoder.decode(T.self, from: encoder.encode(object))
  }

  // MARK: - Kinds whose fields are not a whole model

  public static func entry(status: EntryStatus?, note: String?, amount: Amount? = nil) -> [String: SyncValue] {
    [
      "status": status.map { .string($0.rawValue) } ?? .null, "note": note.map(SyncValue.string) ?? .null,
      "amount": amount.map(number) ?? .null,
    ]
  }

  /// An amount as the JSON number the models encode: whole amounts are integers, so a value
  /// read back from a device compares equal to the one written here.
  static func number(_ amount: Amount) -> SyncValue {
    amount.thousandths % 1000 == 0 ? .int(amount.thousandths / 1000) : .double(amount.doubleValue)
  }

  /// An entry's status (nil: no entry), note and amount, checked. An older client's change
  /// has no amount; one for a skipped, noted or cleared day is dropped. A noted day whose note
  /// a merge took away (fields merge one by one) holds nothing, so it reads as no entry.
  public static func entry(_ fields: [String: SyncValue]) throws(ValidationError) -> HabitEntryValue {
    let status: EntryStatus?
    switch fields["status"] ?? .null {
    case .null: status = nil
    case .string(let text):
      guard let parsed = EntryStatus(rawValue: text) else {
        throw ValidationError(field: "entry.status", rule: "must be done, skipped, noted or null, not '\(text)'")
      }
      status = parsed
    default: throw ValidationError(field: "entry.status", rule: "must be done, skipped, noted or null")
    }
    let note: String?
    switch fields["note"] ?? .null {
    case .null: note = nil
    case .string(let text): note = try EntryNote.resolve(text, keeping: nil)
    default: throw ValidationError(field: "entry.note", rule: "must be text or null")
    }
    let amount: Amount?
    switch fields["amount"] ?? .null {
    case .null: amount = nil
    case .int(let number): amount = try Amount(number: Double(number), field: "entry.amount")
    case .double(let number): amount = try Amount(number: number, field: "entry.amount")
    default: throw ValidationError(field: "entry.amount", rule: "must be a number of 0 or more, or null")
    }
    let kept = status == .noted && note == nil ? nil : status
    return HabitEntryValue(status: kept, note: kept == nil ? nil : note, amount: kept == .done ? amount : nil)
  }

  public static func journal(text: String?) -> [String: SyncValue] {
    ["text": text.map(SyncValue.string) ?? .null]
  }

  /// A pause's merged fields, each checked; `nil` when its last day comes before its first,
  /// which a merge of two devices' edits can make (docs/sync.md).
  public static func pause(_ fields: [String: SyncValue], id: UUID) throws(ValidationError) -> Pause? {
    func day(_ name: String) throws(ValidationError) -> Day? {
      switch fields[name] ?? .null {
      case .null: return nil
      case .string(let text):
        guard let day = Day(text) else {
          throw ValidationError(field: "pause.\(name)", rule: "must be a day written YYYY-MM-DD, not '\(text)'")
        }
        return day
      default: throw ValidationError(field: "pause.\(name)", rule: "must be a day written YYYY-MM-DD")
      }
    }
    let habit: UUID?
    switch fields["habitId"] ?? .null {
    case .null: habit = nil
    case .string(let text):
      guard let id = UUID(uuidString: text) else {
        throw ValidationError(field: "pause.habitId", rule: "must be a habit's id or null, not '\(text)'")
      }
      habit = id
    default: throw ValidationError(field: "pause.habitId", rule: "must be a habit's id or null")
    }
    guard let from = try day("from") else { throw ValidationError(field: "pause.from", rule: "is required") }
    let until = try day("until")
    if let until, until < from { return nil }
    return try Pause(id: id, habitID: habit, from: from, until: until)
  }

  /// A journal day's text (nil: no entry), checked.
  public static func journalText(_ fields: [String: SyncValue], day: Day) throws(ValidationError) -> String? {
    switch fields["text"] ?? .null {
    case .null: return nil
    case .string(let text): return try JournalEntry(day: day, text: text).text
    default: throw ValidationError(field: "journal.text", rule: "must be text or null")
    }
  }

  public static func price(amount: Decimal?, currency: String?) -> [String: SyncValue] {
    [
      "amount": amount.map { .string("\($0)") } ?? .null,
      "currency": currency.map(SyncValue.string) ?? .null,
    ]
  }

  /// A price (nil: removed), checked.
  public static func price(_ fields: [String: SyncValue], country: String, providerID: Int)
    throws(ValidationError) -> Price?
  {
    guard case .string(let amountText) = fields["amount"] ?? .null else {
      guard fields["amount"] == .null else {
        throw ValidationError(field: "price.amount", rule: "must be a decimal number as text, like \"17.99\", or null")
      }
      return nil
    }
    guard let amount = Decimal(string: amountText, locale: Locale(identifier: "en_US_POSIX")),
      amountText.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") })
    else {
      throw ValidationError(field: "price.amount", rule: "must be a decimal number like \"17.99\", not '\(amountText)'")
    }
    guard case .string(let currency) = fields["currency"] ?? .null else {
      throw ValidationError(field: "price.currency", rule: "must be a currency code like USD")
    }
    return try Price(country: country, providerID: providerID, amount: amount, currency: currency)
  }

  static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .custom { date, encoder in
      var container = encoder.singleValueContainer()
      try container.encode(InstantText.text(date))
    }
    return encoder
  }()

  static let decoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { decoder in
      let container = try decoder.singleValueContainer()
      let text = try container.decode(String.self)
      guard let date = InstantText.date(text) ?? InstantText.rfc3339(text) else {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: "'\(text)' is not an instant like 2026-03-08T06:30:00.000Z")
      }
      return date
    }
    return decoder
  }()
}

/// An entry's value as sync holds it: no status means no entry.
public struct HabitEntryValue: Hashable, Sendable {
  public var status: EntryStatus?
  public var note: String?
  public var amount: Amount?
}
