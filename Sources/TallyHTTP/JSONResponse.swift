import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import TallyWire

/// A value sent as the API's JSON (``WireJSON``) with a status.
public struct JSONResponse<Value: Encodable & Sendable>: ResponseGenerator, Sendable {
  public var status: HTTPResponse.Status
  public var value: Value
  public var headers: HTTPFields

  public init(_ value: Value, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) {
    self.value = value
    self.status = status
    self.headers = headers
  }

  public func response(from request: Request, context: some RequestContext) throws -> Response {
    var headers = headers
    headers[.contentType] = "application/json; charset=utf-8"
    let data = try WireJSON.encoder.encode(value)
    return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
  }
}
