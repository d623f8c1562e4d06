import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// `tally healthcheck [--host H] [--port P]`: asks a running `tally serve` for `/healthz`, so a
/// container's HEALTHCHECK needs no curl. Reads the same host and port settings as `serve`.
struct HealthcheckCommand: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "healthcheck",
    abstract: "Ask a running 'tally serve' whether it is healthy.",
    discussion: """
      Exits 0 when GET /healthz answers 200 (the server runs and reaches its database), 1 \
      otherwise with the reason on standard error. Takes the host and port from the same \
      options and environment variables as 'tally serve'; a server listening on every \
      interface (0.0.0.0 or ::) is asked on loopback.
      """)

  @Option(help: ArgumentHelp("The server's address ($TALLY_HOST; default 127.0.0.1).", valueName: "address"))
  var host: String?

  @Option(help: ArgumentHelp("The server's port ($TALLY_PORT; default 8080).", valueName: "port"))
  var port: Int?

  @Option(help: ArgumentHelp("How long to wait for the answer, 1 to 60.", valueName: "seconds"))
  var timeout = 3

  func validate() throws {
    if let port, !(1...65535).contains(port) {
      throw UsageError("The --port must be 1 to 65535, not \(port).")
    }
    if !(1...60).contains(timeout) {
      throw UsageError("The --timeout must be 1 to 60 seconds, not \(timeout).")
    }
  }

  func run(in context: CommandContext) async throws {
    let url = try healthURL(context.environment)
    let response: HTTPClientResponse
    do {
      response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(Int64(timeout)))
    } catch {
      throw CommandFailure("Tally did not answer at \(url): \(Self.reason(error, timeout: timeout)).")
    }
    guard response.status == .ok else {
      throw CommandFailure("Tally at \(url) is not healthy: it answered \(response.status.code) \(response.status.reasonPhrase).")
    }
    context.standardOutput.line("Tally at \(url) is healthy.")
  }

  /// What went wrong, said plainly for the two usual cases.
  static func reason(_ error: any Error, timeout: Int) -> String {
    if let error = error as? HTTPClientError, error == .deadlineExceeded {
      return "no answer within \(timeout) s"
    }
    if let error = error as? IOError, error.errnoCode == ECONNREFUSED {
      return "nothing is listening there"
    }
    return String(describing: error)
  }

  /// The options first, then `TALLY_HOST` and `TALLY_PORT`, as `serve` reads them.
  func healthURL(_ environment: [String: String]) throws -> String {
    var port = self.port ?? 8080
    if self.port == nil, let text = environment["TALLY_PORT"], !text.isEmpty {
      guard let number = Int(text), (1...65535).contains(number) else {
        throw CommandFailure("TALLY_PORT must be a port from 1 to 65535, not '\(text)'.", exitCode: CommandFailure.usage)
      }
      port = number
    }
    var host = host ?? environment["TALLY_HOST"].flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1"
    switch host {
    case "0.0.0.0": host = "127.0.0.1"
    case "::", "[::]": host = "::1"
    default: break
    }
    if host.contains(":"), !host.hasPrefix("[") { host = "[\(host)]" }
    return "http://\(host):\(port)/healthz"
  }
}
