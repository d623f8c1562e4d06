import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import TallyLocalization
import TallyStore

/// The web app manifest in the visitor's language: the shipped file with its `lang`, `dir` and
/// description set from the catalogs, made once per language. Its ETag names the language, so
/// a device that changes language gets the new one; the service worker keeps the one its
/// browser asked for.
enum InstallManifest {
  static let made = DrawnOnce(capacity: 32) { (speech: PageSpeech) -> Data in
    guard let asset = Assets.shared.files["manifest.webmanifest"],
      var fields = try? JSONSerialization.jsonObject(with: Data(asset.bytes.readableBytesView)) as? [String: Any]
    else { preconditionFailure("the shipped manifest is not a JSON object") }
    fields["lang"] = speech.lang
    fields["dir"] = speech.dir
    fields["description"] = speech.translator.text("manifest.description")
    guard let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]) else {
      preconditionFailure("the manifest could not be written")
    }
    return data
  }

  static func response(for request: Request, user: User?) -> Response {
    let speech = PageLanguages.speech(for: request, user: user)
    let etag = "\"\(Assets.shared.files["manifest.webmanifest"]?.etag ?? "")-\(speech.translator.code)\""
    var headers: HTTPFields = [.eTag: etag, .cacheControl: "no-cache", .vary: "Cookie, Accept-Language"]
    if request.headers[.ifNoneMatch] == etag { return Response(status: .notModified, headers: headers) }
    headers[.contentType] = "application/manifest+json"
    return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: made(speech))))
  }
}
