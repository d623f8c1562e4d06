import Foundation
import TallyHTTP

/// The OpenAPI 3.1 document, kept as one JSON file per area in `Resources/openapi/` (so each
/// area's routes and schemas sit together) and merged here. A test proves its paths and the
/// router's routes are the same set.
public enum OpenAPIDocument {
  /// The merged document, serialized once.
  public static let data: Data = {
    do {
      return try JSONSerialization.data(
        withJSONObject: try merged(), options: [.sortedKeys, .withoutEscapingSlashes])
    } catch {
      preconditionFailure("the OpenAPI resources are broken: \(error)")
    }
  }()

  /// `base.json` with every other file's `paths` and `components` added; a path, method or
  /// schema defined twice is an error, so two areas cannot silently overwrite each other.
  public static func merged() throws -> [String: Any] {
    guard
      let folder = Bundle.module.url(forResource: "openapi", withExtension: nil, subdirectory: "Resources")
    else { throw MergeError("Resources/openapi is missing from the bundle") }
    let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
      .filter { $0.pathExtension == "json" }
      .sorted { $0.lastPathComponent < $1.lastPathComponent }
    var document = try object(at: folder.appendingPathComponent("base.json"))
    for file in files where file.lastPathComponent != "base.json" {
      let part = try object(at: file)
      for (section, key) in [("paths", ["paths"]), ("schemas", ["components", "schemas"]),
        ("parameters", ["components", "parameters"]), ("responses", ["components", "responses"])]
      {
        guard let entries = value(at: key, in: part) as? [String: Any] else { continue }
        var target = value(at: key, in: document) as? [String: Any] ?? [:]
        for (name, entry) in entries {
          if section == "paths", let existing = target[name] as? [String: Any],
            let methods = entry as? [String: Any]
          {
            if let clash = methods.keys.first(where: { existing[$0] != nil }) {
              throw MergeError("\(file.lastPathComponent) defines \(clash) \(name) again")
            }
            target[name] = existing.merging(methods) { old, _ in old }
          } else if target[name] != nil {
            throw MergeError("\(file.lastPathComponent) defines \(section) '\(name)' again")
          } else {
            target[name] = entry
          }
        }
        set(target, at: key, in: &document)
      }
    }
    return document
  }

  struct MergeError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }

  private static func object(at url: URL) throws -> [String: Any] {
    guard let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] else {
      throw MergeError("\(url.lastPathComponent) is not a JSON object")
    }
    return object
  }

  private static func value(at path: [String], in object: [String: Any]) -> Any? {
    var current: Any? = object
    for key in path { current = (current as? [String: Any])?[key] }
    return current
  }

  private static func set(_ newValue: [String: Any], at path: [String], in object: inout [String: Any]) {
    if path.count == 1 {
      object[path[0]] = newValue
      return
    }
    var child = object[path[0]] as? [String: Any] ?? [:]
    set(newValue, at: Array(path.dropFirst()), in: &child)
    object[path[0]] = child
  }
}
