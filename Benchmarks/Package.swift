// swift-tools-version: 6.1
import PackageDescription

// Benchmarks live in their own package so their build never slows the app's.
// The engine:            swift run -c release --package-path Benchmarks tally-benchmarks
// The engine, before and after a change: python3 Benchmarks/engine_ab.py BASE_COMMIT
// Storage and commands:  swift build -c release --product tally &&
//                        swift run -c release --package-path Benchmarks tally-benchmarks storage
// Importing Loop's files: swift run -c release --package-path Benchmarks tally-benchmarks import
// Sync:                  swift build -c release --product tally &&
//                        swift run -c release --package-path Benchmarks tally-benchmarks sync
// Hummingbird's floor:   swift build -c release --package-path Benchmarks --product hummingbird-floor
let package = Package(
  name: "TallyBenchmarks",
  platforms: [.macOS(.v14)],
  dependencies: [
    .package(name: "Tally", path: ".."),
    .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
    .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
    .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
  ],
  targets: [
    .executableTarget(
      name: "tally-benchmarks",
      dependencies: [
        .product(name: "TallyCore", package: "Tally"),
        .product(name: "TallyCoreReference", package: "Tally"),
        .product(name: "TallyStore", package: "Tally"),
        .product(name: "TallySQLite", package: "Tally"),
        .product(name: "TallyCLI", package: "Tally"),
        .product(name: "TallyImport", package: "Tally"),
        .product(name: "TallyWire", package: "Tally"),
        .product(name: "TallySync", package: "Tally"),
        .product(name: "TallySyncClient", package: "Tally"),
        .product(name: "TallyAccounts", package: "Tally"),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
      ],
      path: "Sources/TallyBenchmarks",
      swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
    ),
    // A bare Hummingbird route: the floor an empty poll is measured against (live_load.py --floor).
    .executableTarget(
      name: "hummingbird-floor",
      dependencies: [.product(name: "Hummingbird", package: "hummingbird")],
      path: "Sources/HummingbirdFloor"
    ),
  ]
)
