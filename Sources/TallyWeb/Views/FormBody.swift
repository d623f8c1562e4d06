import Foundation
import Hummingbird
import TallyCore
import TallyHTTP

extension Request {
  /// A form post (`application/x-www-form-urlencoded`) decoded as `T`. Field names are the
  /// page's own, so a decoding failure is the page's bug or a hand-made request: it is answered
  /// with the field at fault, and nothing is written.
  func decodeForm<T: Decodable>(_ type: T.Type, limit: Int) async throws -> T {
    let data = try await bodyData(limit: limit)
    do {
      return try URLEncodedFormDecoder().decode(T.self, from: String(decoding: data, as: UTF8.self))
    } catch let error as DecodingError {
      throw Problem(
        .unprocessableContent, "The form is wrong at \(DecodingErrorText.describe(error)).",
        field: DecodingErrorText.path(error))
    }
  }
}
