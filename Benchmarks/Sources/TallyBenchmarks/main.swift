import Foundation

// `tally-benchmarks` measures the engine; `tally-benchmarks month` the streaming month view;
// `tally-benchmarks storage` the database and commands; `tally-benchmarks import` importing
// Loop Habit Tracker's files; `tally-benchmarks sync` a replica against `tally serve`.
let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case nil:
  engineBenchmark()
case "month":
  do {
    try await MonthBenchmark.run()
  } catch {
    FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
    exit(1)
  }
case "storage":
  do {
    try await StorageBenchmark.run(Array(arguments.dropFirst()))
  } catch {
    FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
    exit(1)
  }
case "sync":
  do {
    try await SyncBenchmark.run(Array(arguments.dropFirst()))
  } catch {
    FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
    exit(1)
  }
case "import":
  do {
    try await ImportBenchmark.run(Array(arguments.dropFirst()))
  } catch {
    FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
    exit(1)
  }
default:
  FileHandle.standardError.write(
    Data("Usage: tally-benchmarks [month | storage [--tally PATH | --in-process] | import [BACKUP.db [CSV.zip]] | sync [--tally PATH]]\n".utf8))
  exit(64)
}
