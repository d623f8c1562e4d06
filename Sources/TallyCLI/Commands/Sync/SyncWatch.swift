import Foundation
import TallySync
import TallySyncClient

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `tally sync --watch`: keeps this replica current through the server's live stream
/// (docs/sync.md "Live changes") until SIGINT or SIGTERM, which end it cleanly, so the
/// database is closed as after any command.
struct SyncWatch {
  let client: SyncClient
  let transport: any LiveSyncTransport
  let url: String
  let output: TextStream

  func run() async throws {
    output.line("Watching \(url) for changes; Ctrl-C stops.")
    let watching = Task { [client, transport, output] in
      try await client.watch(transport) { report in
        switch report {
        case .synced(let summary) where summary.pushed + summary.pulled > 0:
          summary.lines.forEach(output.line)
        case .synced:
          break
        case .failed(let error, let wait):
          output.line("Sync with the server failed: \(error). Trying again in \(wait.components.seconds) s.")
        }
      }
    }
    let signals = [SIGINT, SIGTERM].map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number)
      source.setEventHandler { watching.cancel() }
      source.resume()
      return source
    }
    defer { signals.forEach { $0.cancel() } }
    do {
      try await watching.value
    } catch is CancellationError {
      output.line("Stopped watching.")
    } catch let error as SyncTransportError {
      throw CommandFailure("Sync with \(url) stopped: \(error). Run 'tally sync' again once it is mended.")
    }
  }
}
