import Foundation

/// JSON read by hand into ``SyncValue``: a first pull reads hundreds of thousands of changes,
/// and `JSONDecoder` spends most of its time in `Codable`'s machinery. Reads what `Codable`
/// reads, to the same values (a test checks); refuses what it refuses, and trailing commas,
/// which `JSONDecoder` lets through and Tally never writes.
public enum SyncJSONReader {
  /// The one JSON value `bytes` hold, whitespace around it allowed.
  public static func value(_ bytes: some Collection<UInt8>) throws -> SyncValue {
    if let value = try bytes.withContiguousStorageIfAvailable({ try read($0) }) { return value }
    return try Array(bytes).withUnsafeBufferPointer { try read($0) }
  }

  /// A pull's answer. Its changes are read straight into ``SyncChange``s, not first into a
  /// dictionary each: a first pull's 155,000 changes spent 40% of their reading there.
  public static func pull(_ bytes: some Collection<UInt8>) throws -> SyncPullResponse {
    if let page = try bytes.withContiguousStorageIfAvailable({ try pull(buffer: $0) }) { return page }
    return try Array(bytes).withUnsafeBufferPointer { try pull(buffer: $0) }
  }

  private static func pull(buffer: UnsafeBufferPointer<UInt8>) throws -> SyncPullResponse {
    var reader = Reader(bytes: buffer)
    var changes: [SyncChange]?
    var object: [String: SyncValue] = [:]
    try reader.members(depth: 0, "the answer") { reader, key in
      if key == "changes", changes == nil, object["changes"] == nil,
        let items = try reader.array(depth: 1, of: { try $0.change() })
      {
        changes = items
      } else {
        reader.keepFirst(key, try reader.value(depth: 1), in: &object)
      }
    }
    reader.skipSpace()
    guard reader.index == buffer.count else { throw reader.error("text after the JSON value") }
    guard case .string(let cursor)? = object["cursor"] else { throw SyncJSONReadError("the answer has no cursor") }
    guard case .bool(let more)? = object["more"] else { throw SyncJSONReadError("the answer has no 'more'") }
    guard let changes else { throw SyncJSONReadError("the answer has no changes") }
    return SyncPullResponse(changes: changes, cursor: cursor, more: more)
  }

  /// A change as pushed and pulled, with the checks `SyncChange`'s `Codable` makes.
  public static func change(_ value: SyncValue) throws -> SyncChange {
    let object = try self.object(value, "a change")
    return try change(
      ChangeMembers(
        kind: object["kind"], id: object["id"], stamp: object["stamp"], fields: object["fields"],
        deleted: object["deleted"], unknown: object.keys.filter { !changeKeys.contains($0) }))
  }

  /// A change's members as read; `unknown` names any other keys.
  struct ChangeMembers {
    var kind, id, stamp, fields, deleted: SyncValue?
    var unknown: [String] = []
  }

  static func change(_ object: ChangeMembers) throws -> SyncChange {
    if let unknown = object.unknown.min() {
      throw SyncJSONReadError("'\(unknown)' is not a field of a change")
    }
    guard case .string(let kindText)? = object.kind, let kind = SyncKind(rawValue: kindText) else {
      throw SyncJSONReadError("a change has no kind Tally knows")
    }
    guard case .string(let id)? = object.id else { throw SyncJSONReadError("a change has no id") }
    guard case .string(let stampText)? = object.stamp, let stamp = HybridStamp(stampText) else {
      throw SyncJSONReadError("change \(kindText) \(id) has no valid stamp")
    }
    var fields: [String: SyncValue] = [:]
    switch object.fields {
    case nil, .null?: break
    case .object(let value)?: fields = value
    default: throw SyncJSONReadError("the fields of change \(kindText) \(id) are not an object")
    }
    var deleted = false
    switch object.deleted {
    case nil, .null?: break
    case .bool(let value)?: deleted = value
    default: throw SyncJSONReadError("'deleted' of change \(kindText) \(id) is not true or false")
    }
    return SyncChange(kind: kind, id: id, stamp: stamp, fields: fields, deleted: deleted)
  }

  private static let changeKeys: Set<String> = ["kind", "id", "stamp", "fields", "deleted"]

  private static func object(_ value: SyncValue, _ what: String) throws -> [String: SyncValue] {
    guard case .object(let object) = value else { throw SyncJSONReadError("\(what) is not a JSON object") }
    return object
  }

  private static func read(_ buffer: UnsafeBufferPointer<UInt8>) throws -> SyncValue {
    var reader = Reader(bytes: buffer)
    let value = try reader.value(depth: 0)
    reader.skipSpace()
    guard reader.index == buffer.count else { throw reader.error("text after the JSON value") }
    return value
  }
}

public struct SyncJSONReadError: Error, CustomStringConvertible {
  public let description: String
  init(_ description: String) { self.description = description }
}

private struct Reader {
  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0

  func error(_ what: String) -> SyncJSONReadError { SyncJSONReadError("not valid JSON at byte \(index): \(what)") }

  mutating func skipSpace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x0A, 0x0D, 0x09: index += 1
      default: return
      }
    }
  }

  mutating func value(depth: Int) throws -> SyncValue {
    guard depth < 512 else { throw error("nested too deeply") }
    skipSpace()
    guard index < bytes.count else { throw error("the text ends") }
    switch bytes[index] {
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "{"): return try object(depth: depth)
    case UInt8(ascii: "["): return try array(depth: depth)
    case UInt8(ascii: "t"): try literal("true"); return .bool(true)
    case UInt8(ascii: "f"): try literal("false"); return .bool(false)
    case UInt8(ascii: "n"): try literal("null"); return .null
    default: return try number()
    }
  }

  mutating func object(depth: Int) throws -> SyncValue {
    // A change's fields are three or four.
    var object = [String: SyncValue](minimumCapacity: 4)
    try members(depth: depth, "a value") { reader, key in
      reader.keepFirst(key, try reader.value(depth: depth + 1), in: &object)
    }
    return .object(object)
  }

  /// Like JSONDecoder, a repeated key keeps its first value. Touching the entry through the
  /// `default:` subscript inserts `value` only where the key is missing, hashing the key once.
  func keepFirst(_ key: String, _ value: SyncValue, in object: inout [String: SyncValue]) {
    func touch(_: inout SyncValue) {}
    touch(&object[key, default: value])
  }

  /// Reads an object's members, handing each key to `member` to read its value; `what` names
  /// the object when it is not one.
  mutating func members(depth: Int, _ what: String, _ member: (inout Reader, String) throws -> Void) throws {
    guard depth < 512 else { throw error("nested too deeply") }
    skipSpace()
    guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else {
      throw SyncJSONReadError("\(what) is not a JSON object")
    }
    index += 1
    skipSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return
    }
    while true {
      skipSpace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key") }
      let key = try string()
      skipSpace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
      index += 1
      try member(&self, key)
      skipSpace()
      guard index < bytes.count else { throw error("the text ends") }
      index += 1
      if bytes[index - 1] == UInt8(ascii: "}") { return }
      guard bytes[index - 1] == UInt8(ascii: ",") else { throw error("expected ',' or '}'") }
    }
  }

  mutating func array(depth: Int) throws -> SyncValue {
    .array(try array(depth: depth) { try $0.value(depth: depth + 1) } ?? [])
  }

  /// An array's items, each read by `item`; `nil` when the value here is not an array (the
  /// reader is then where it was).
  mutating func array<Item>(depth: Int, of item: (inout Reader) throws -> Item) throws -> [Item]? {
    guard depth < 512 else { throw error("nested too deeply") }
    skipSpace()
    guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { return nil }
    index += 1
    var items: [Item] = []
    skipSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return items
    }
    while true {
      items.append(try item(&self))
      skipSpace()
      guard index < bytes.count else { throw error("the text ends") }
      index += 1
      if bytes[index - 1] == UInt8(ascii: "]") { return items }
      guard bytes[index - 1] == UInt8(ascii: ",") else { throw error("expected ',' or ']'") }
    }
  }

  /// A change's object, its five members read without a dictionary of their own.
  mutating func change() throws -> SyncChange {
    var change = SyncJSONReader.ChangeMembers()
    try members(depth: 2, "a change") { reader, key in
      let value = try reader.value(depth: 3)
      // The first of a repeated key counts, as in `object(depth:)`.
      switch key {
      case "kind": change.kind = change.kind ?? value
      case "id": change.id = change.id ?? value
      case "stamp": change.stamp = change.stamp ?? value
      case "fields": change.fields = change.fields ?? value
      case "deleted": change.deleted = change.deleted ?? value
      default: change.unknown.append(key)
      }
    }
    return try SyncJSONReader.change(change)
  }

  mutating func literal(_ word: StaticString) throws {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count,
      memcmp(bytes.baseAddress! + index, word.utf8Start, count) == 0
    else { throw error("expected \(word)") }
    index += count
  }

  /// Plain text is copied in one go; only text with escapes is built piece by piece.
  mutating func string() throws -> String {
    index += 1
    let start = index
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        defer { index += 1 }
        return try text(start..<index)
      }
      if byte == UInt8(ascii: "\\") { return try escaped(from: start) }
      guard byte >= 0x20 else { throw error("a control character in a string") }
      index += 1
    }
    throw error("a string does not end")
  }

  /// `String(validating:)` would do, but not before iOS 18.
  func text(_ range: Range<Int>) throws -> String {
    let slice = UnsafeBufferPointer(rebasing: bytes[range])
    if slice.allSatisfy({ $0 < 0x80 }) { return String(decoding: slice, as: UTF8.self) }
    guard let text = String(bytes: slice, encoding: .utf8) else { throw error("text that is not UTF-8") }
    return text
  }

  mutating func escaped(from start: Int) throws -> String {
    var scalars = String.UnicodeScalarView()
    scalars.append(contentsOf: try text(start..<index).unicodeScalars)
    var plain = index
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        scalars.append(contentsOf: try text(plain..<index).unicodeScalars)
        index += 1
        return String(scalars)
      }
      guard byte >= 0x20 else { throw error("a control character in a string") }
      guard byte == UInt8(ascii: "\\") else {
        index += 1
        continue
      }
      scalars.append(contentsOf: try text(plain..<index).unicodeScalars)
      index += 1
      guard index < bytes.count else { break }
      let code = bytes[index]
      index += 1
      switch code {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(Unicode.Scalar(code))
      case UInt8(ascii: "b"): scalars.append("\u{08}")
      case UInt8(ascii: "f"): scalars.append("\u{0C}")
      case UInt8(ascii: "n"): scalars.append("\n")
      case UInt8(ascii: "r"): scalars.append("\r")
      case UInt8(ascii: "t"): scalars.append("\t")
      case UInt8(ascii: "u"): scalars.append(try unicodeEscape())
      default: throw error("an unknown escape")
      }
      plain = index
    }
    throw error("a string does not end")
  }

  /// `\uXXXX`, a surrogate pair taking two.
  mutating func unicodeEscape() throws -> Unicode.Scalar {
    let first = try hex4()
    if (0xD800..<0xDC00).contains(first) {
      guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
        throw error("a lone surrogate")
      }
      index += 2
      let second = try hex4()
      guard (0xDC00..<0xE000).contains(second),
        let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
      else { throw error("a lone surrogate") }
      return scalar
    }
    guard let scalar = Unicode.Scalar(first) else { throw error("a lone surrogate") }
    return scalar
  }

  mutating func hex4() throws -> UInt32 {
    guard index + 4 <= bytes.count else { throw error("a short \\u escape") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let digit = hexValue(bytes[index]) else { throw error("a bad \\u escape") }
      value = value << 4 | digit
      index += 1
    }
    return value
  }

  func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
  }

  /// JSON's number grammar; an integer that fits is `.int`, as `SyncValue`'s `Codable` reads it.
  mutating func number() throws -> SyncValue {
    let start = index
    func digits() -> Int {
      let from = index
      while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
      return index - from
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
    let whole = digits()
    guard whole > 0 else { throw error("expected a value") }
    guard whole == 1 || bytes[index - whole] != UInt8(ascii: "0") else { throw error("a number with a leading zero") }
    var integral = true
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      integral = false
      guard digits() > 0 else { throw error("a number with no digits after '.'") }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      integral = false
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
      guard digits() > 0 else { throw error("a number with no exponent digits") }
    }
    let text = try self.text(start..<index)
    if integral, let value = Int64(text) { return .int(value) }
    guard let value = Double(text) else { throw error("a number out of range") }
    // An integer past Int64's ends stays a Double, as Codable reads it, even one the Double
    // rounds onto the end (-9223372036854775809): a field taking a whole number refuses it.
    if !integral, let exact = Int64(exactly: value) { return .int(exact) }
    return .double(value)
  }
}
