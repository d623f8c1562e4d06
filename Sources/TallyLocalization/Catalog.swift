import Foundation

/// The strings of one language: an i18next JSON v4 file whose nested objects become dotted
/// keys (`{"habits": {"form": {"name": "Name"}}}` is `habits.form.name`). Plural forms keep
/// their suffix (`habits.count_one`); the translator picks among them.
public struct Catalog: Sendable, Equatable {
  public let templates: [String: Template]

  public init(templates: [String: Template]) { self.templates = templates }

  /// A catalog from flat key–string pairs, for code that builds one (tests, pseudo-locale).
  public init(strings: [String: String]) {
    self.templates = strings.mapValues(Template.init)
  }

  public subscript(key: String) -> Template? { templates[key] }
  public var keys: Dictionary<String, Template>.Keys { templates.keys }

  /// Reads a locale file's bytes; `file` names it in errors. Refuses a file over
  /// `limits.maxBytes`, nesting deeper than `limits.maxDepth`, a value that is not a string
  /// or an object, and two spellings of one key (`"a.b"` beside `"a": {"b"}`).
  public init(data: Data, file: String, limits: CatalogLimits = .standard) throws(CatalogError) {
    guard data.count <= limits.maxBytes else {
      throw CatalogError(file: file, problem: .tooLarge(bytes: data.count, limit: limits.maxBytes))
    }
    let root: Any
    do {
      root = try JSONSerialization.jsonObject(with: data)
    } catch {
      throw CatalogError(file: file, problem: .notJSON(String(describing: error)))
    }
    guard let object = root as? [String: Any] else { throw CatalogError(file: file, problem: .notAnObject) }
    var flat: [String: Template] = [:]
    do {
      try Self.flatten(object, prefix: "", depth: 1, limits: limits, into: &flat)
    } catch {
      throw CatalogError(file: file, problem: error)
    }
    self.templates = flat
  }

  /// Reads a locale file from disk, no more than `limits.maxBytes` of it.
  public init(contentsOf url: URL, limits: CatalogLimits = .standard) throws(CatalogError) {
    let file = url.lastPathComponent
    let data: Data
    do {
      let handle = try FileHandle(forReadingFrom: url)
      defer { try? handle.close() }
      data = try handle.read(upToCount: limits.maxBytes + 1) ?? Data()
    } catch {
      throw CatalogError(file: file, problem: .unreadable(String(describing: error)))
    }
    try self.init(data: data, file: file, limits: limits)
  }

  private static func flatten(
    _ object: [String: Any], prefix: String, depth: Int, limits: CatalogLimits, into flat: inout [String: Template]
  ) throws(CatalogError.Problem) {
    guard depth <= limits.maxDepth else { throw .tooDeep(key: prefix, limit: limits.maxDepth) }
    // Sorted so the error a broken file gets is the same on every run.
    for name in object.keys.sorted() {
      let key = prefix.isEmpty ? name : prefix + "." + name
      switch object[name] {
      case let text as String:
        guard flat.updateValue(Template(text), forKey: key) == nil else { throw .duplicateKey(key) }
      case let nested as [String: Any]:
        try flatten(nested, prefix: key, depth: depth + 1, limits: limits, into: &flat)
      case let other:
        throw .notAString(key: key, found: Self.kind(of: other))
      }
    }
  }

  private static func kind(of value: Any?) -> String {
    switch value {
    case is [Any]: "an array"
    case is NSNull: "null"
    case is NSNumber: "a number or true/false"
    default: "a value that is not a string"
    }
  }
}

/// How much of a locale file is read: the shipped files are a few hundred kilobytes at most,
/// so these stop a damaged or hostile file long before it costs memory.
public struct CatalogLimits: Sendable {
  public var maxBytes: Int
  public var maxDepth: Int

  public init(maxBytes: Int, maxDepth: Int) {
    self.maxBytes = maxBytes
    self.maxDepth = maxDepth
  }

  public static let standard = CatalogLimits(maxBytes: 2 * 1024 * 1024, maxDepth: 8)
}

/// A locale file Tally refuses, naming the file and what is wrong with it.
public struct CatalogError: Error, Equatable, CustomStringConvertible {
  public enum Problem: Error, Equatable, Sendable {
    case tooLarge(bytes: Int, limit: Int)
    case tooDeep(key: String, limit: Int)
    case notAString(key: String, found: String)
    case duplicateKey(String)
    case notAnObject
    case notJSON(String)
    case unreadable(String)
    case missingFile
  }

  public let file: String
  public let problem: Problem

  public init(file: String, problem: Problem) {
    self.file = file
    self.problem = problem
  }

  public var description: String {
    switch problem {
    case .tooLarge(let bytes, let limit):
      "\(file): \(bytes) bytes or more, over the \(limit) a locale file may hold"
    case .tooDeep(let key, let limit): "\(file): \"\(key)\" nests deeper than \(limit) levels"
    case .notAString(let key, let found): "\(file): \"\(key)\" is \(found); a translation must be a string"
    case .duplicateKey(let key): "\(file): \"\(key)\" is written twice (a dotted name and a nested object)"
    case .notAnObject: "\(file): the file must be one JSON object of keys and strings"
    case .notJSON(let reason): "\(file): not JSON (\(reason))"
    case .unreadable(let reason): "\(file): cannot be read (\(reason))"
    case .missingFile: "\(file): no such locale file"
    }
  }
}
