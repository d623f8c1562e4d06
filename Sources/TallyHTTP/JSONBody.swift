import Foundation
import Hummingbird
import NIOCore
import TallyCore
import TallyWire

/// A JSON request body: a `Decodable` that lists its fields, so a misspelt or unknown field is
/// refused by name instead of being silently dropped.
public protocol JSONBody: Decodable, Sendable {
  static var fields: Set<String> { get }
  /// The fields `null` may be sent for (to unset them); any other field sent as `null` is
  /// refused by name rather than read as "absent".
  static var nullableFields: Set<String> { get }
  /// The most characters each text field may hold, counted as the OpenAPI document's
  /// `maxLength` counts them: Unicode code points of the text as sent, before any trimming.
  /// The models count what they keep (trimmed, by grapheme); this keeps the API to the limit
  /// the document promises, so a client checking against the document is never surprised.
  static var textLimits: [String: Int] { get }
  /// The whole numbers each numeric field takes, by path (`frequency.targetPerWeek`): the
  /// ranges the models check, named here so a number too large for any integer is refused
  /// with its field's own range rather than as unreadable.
  static var wholeNumberRanges: [String: ClosedRange<Int>] { get }
}

extension JSONBody {
  public static var nullableFields: Set<String> { [] }
  public static var textLimits: [String: Int] { [:] }
  public static var wholeNumberRanges: [String: ClosedRange<Int>] { [:] }
}

extension Request {
  /// Reads at most `limit` bytes and decodes `T`, answering each way it can go wrong with a
  /// problem that names the field.
  package func decodeJSON<T: JSONBody>(_ type: T.Type, limit: Int) async throws -> T {
    let body = try await bodyData(limit: limit)
    let object = try Self.jsonObject(body)
    guard let fields = object as? [String: Any] else {
      throw Problem(.badRequest, "The request body must be a JSON object.")
    }
    if let unknown = fields.keys.sorted().first(where: { !T.fields.contains($0) }) {
      throw Problem(
        .unprocessableContent,
        "The field '\(unknown)' is not known here; the known fields are "
          + "\(T.fields.sorted().map { "'\($0)'" }.joined(separator: ", ")).",
        field: unknown)
    }
    if let null = fields.keys.sorted().first(where: { fields[$0] is NSNull && !T.nullableFields.contains($0) }) {
      throw Problem(
        .unprocessableContent, "The field '\(null)' cannot be null: leave it out, or give it a value.", field: null)
    }
    for (field, limit) in T.textLimits.sorted(by: { $0.key < $1.key }) {
      if let text = fields[field] as? String, text.unicodeScalars.count > limit {
        throw Problem(
          .unprocessableContent, ValidationError.tooLong(field, max: limit, length: text.unicodeScalars.count))
      }
    }
    let data = try JSONSerialization.data(withJSONObject: object)
    do {
      return try WireJSON.decoder.decode(T.self, from: data)
    } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
      // Foundation's decoder reports a fraction for a whole number, or a whole number past
      // any integer, as "not valid JSON" with no field; the body is valid JSON, so one of those
      // is what went wrong.
      let numbers = JSONNumbers.all(in: body)
      if let number = numbers.first(where: { JSONNumbers.isWhole($0.text) && !JSONNumbers.fitsInteger($0.text) }) {
        let range = T.wholeNumberRanges[number.path] ?? Int.min...Int.max
        throw Problem(
          .unprocessableContent,
          "The \(number.path) must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(number.text).",
          field: number.path)
      }
      if let number = numbers.first(where: { !JSONNumbers.isWhole($0.text) }) {
        throw Problem(
          .unprocessableContent, "The \(number.path) must be a whole number, not \(number.text).", field: number.path)
      }
      throw Problem(.unprocessableContent, "The request body is wrong: \(context.debugDescription)")
    } catch let error as DecodingError {
      throw Problem(
        .unprocessableContent, "The request body is wrong at \(DecodingErrorText.describe(error)).",
        field: DecodingErrorText.path(error))
    } catch let error as ValidationError {
      throw Problem(.unprocessableContent, "The \(error.field) \(error.rule).", field: error.field)
    }
  }

  /// The body parsed as any JSON value; 400 when it is not JSON, 422 naming
  /// the field when a number is one no field can take (too large, too small, `-0`).
  private static func jsonObject(_ data: Data) throws -> Any {
    guard !data.isEmpty else { throw Problem(.badRequest, "The request needs a JSON body.") }
    for number in JSONNumbers.all(in: data) {
      if let problem = JSONNumbers.problem(number.text) {
        throw Problem(
          .unprocessableContent, "The \(number.path) \(number.text) \(problem).", field: number.path)
      }
    }
    do {
      return try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    } catch {
      throw Problem(.badRequest, "The request body is not valid JSON.")
    }
  }

  package func bodyData(limit: Int) async throws -> Data {
    let buffer: ByteBuffer
    do {
      buffer = try await body.collect(upTo: limit)
    } catch {
      throw Problem(.contentTooLarge, "The request body is larger than \(limit) bytes.")
    }
    return Data(buffer.readableBytesView)
  }
}

extension KeyedDecodingContainer {
  /// The value when the key is sent, `nil` when it is absent. Unlike `decodeIfPresent`, `null`
  /// is refused: a field that cannot be unset must not read as "leave it as it is".
  package func decodeIfSent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    contains(key) ? try decode(type, forKey: key) : nil
  }

  /// For a field that can be unset: absent → `nil` (keep), `null` → `.some(nil)` (remove).
  package func decodeNullable<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T?? {
    contains(key) ? .some(try decodeIfPresent(type, forKey: key)) : nil
  }
}
