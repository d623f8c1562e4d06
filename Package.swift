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
  ],
  dependencies: [
    .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
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
