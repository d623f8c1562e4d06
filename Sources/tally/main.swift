import Foundation
import TallyCLI

let status = await Tally.run(
  arguments: Array(CommandLine.arguments.dropFirst()), context: .process())
exit(status)
