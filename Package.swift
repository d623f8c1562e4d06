// swift-tools-version: 6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
  name: "Tally",
  platforms: [.macOS(.v14), .iOS(.v17)],
  products: [
    .library(name: "TallyCore", targets: ["TallyCore"]),
    .library(name: "TallyCoreReference", targets: ["TallyCoreReference"]),
    .library(name: "TallyStore", targets: ["TallyStore"]),
    .library(name: "TallySQLite", targets: ["TallySQLite"]),
    .library(name: "TallyCLI", targets: ["TallyCLI"]),
    .executable(name: "tally", targets: ["tally"]),
  ],
  dependencies: [
    .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
    .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
    .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
  ],
  targets: []
)

// MARK: - Core: the pure engine (Foundation only, no I/O, no wall clock)

package.targets += [
  .target(
    name: "TallyCore",
    swiftSettings: swiftSettings
  ),
  .testTarget(
    name: "TallyCoreTests",
    dependencies: [
      "TallyCore",
      "TallyCoreReference",
      .product(name: "PropertyBased", package: "swift-property-based"),
    ],
    swiftSettings: swiftSettings
  ),
  // Slow, obviously-correct versions of the engine's rules: the oracle for property tests
  // and the baseline the benchmarks report ratios against.
  .target(
    name: "TallyCoreReference",
    dependencies: ["TallyCore"],
    swiftSettings: swiftSettings
  ),
]

// MARK: - Storage: repository protocols, their in-memory twins, and SQLite through GRDB

package.targets += [
  // What the rest of Tally asks of a store, and an in-memory store that answers it.
  .target(
    name: "TallyStore",
    dependencies: ["TallyCore"],
    swiftSettings: swiftSettings
  ),
  // The shared contract suite lives here and runs against every implementation.
  .testTarget(
    name: "TallyStoreTests",
    dependencies: ["TallyStore", "TallySQLite"],
    swiftSettings: swiftSettings
  ),
  // The durable store: one SQLite file (WAL), versioned migrations.
  .target(
    name: "TallySQLite",
    dependencies: [
      "TallyStore",
      .product(name: "GRDB", package: "GRDB.swift"),
    ],
    swiftSettings: swiftSettings
  ),
  .testTarget(
    name: "TallySQLiteTests",
    dependencies: [
      "TallySQLite",
      .product(name: "GRDB", package: "GRDB.swift"),
    ],
    resources: [.copy("Fixtures")],
    swiftSettings: swiftSettings
  ),
]

// MARK: - Command line: `tally`, a thin executable over a library of one file per subcommand

package.targets += [
  // Parses, calls the engine and the store, prints. Runs from `Tally.run(arguments:context:)`
  // so tests drive the real parse-and-run path without spawning processes.
  .target(
    name: "TallyCLI",
    dependencies: [
      "TallyCore",
      "TallyStore",
      "TallySQLite",
      .product(name: "ArgumentParser", package: "swift-argument-parser"),
    ],
    swiftSettings: swiftSettings
  ),
  .testTarget(
    name: "TallyCLITests",
    dependencies: ["TallyCLI", "TallyCore", "TallyStore", "TallySQLite"],
    swiftSettings: swiftSettings
  ),
  // A few lines: read the process's arguments, environment and clock, call TallyCLI, exit.
  .executableTarget(
    name: "tally",
    dependencies: ["TallyCLI"],
    swiftSettings: swiftSettings
  ),
]
