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
    .library(name: "TallyPostgres", targets: ["TallyPostgres"]),
    .library(name: "TallySync", targets: ["TallySync"]),
    .library(name: "TallySyncClient", targets: ["TallySyncClient"]),
    .library(name: "TallyWire", targets: ["TallyWire"]),
    .library(name: "TallyImport", targets: ["TallyImport"]),
    .library(name: "TallyTMDB", targets: ["TallyTMDB"]),
    .library(name: "TallyLocalization", targets: ["TallyLocalization"]),
    .library(name: "TallyAccounts", targets: ["TallyAccounts"]),
    .library(name: "TallyPush", targets: ["TallyPush"]),
    .library(name: "TallyOIDC", targets: ["TallyOIDC"]),
    .library(name: "TallyDelivery", targets: ["TallyDelivery"]),
    .library(name: "TallyHTTP", targets: ["TallyHTTP"]),
    .library(name: "TallyAPI", targets: ["TallyAPI"]),
    .library(name: "TallyWeb", targets: ["TallyWeb"]),
    .library(name: "TallyServer", targets: ["TallyServer"]),
    .library(name: "TallyCLI", targets: ["TallyCLI"]),
    .executable(name: "tally", targets: ["tally"]),
  ],
  dependencies: [
    .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
    .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
    .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
    .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
    .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
    // jwt-kit 5 needs swift-crypto 4.
    .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
    .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
    .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
    .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
    .package(url: "https://github.com/weichsel/ZIPFoundation.git", from: "0.9.20"),
    .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
    .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.81.0"),
    .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.24.0"),
  ],
  targets: []
)

// MARK: - Core: the pure engine (Foundation only, no I/O, no wall clock)

package.targets += [
  .target(
    name: "TallyCore",
    // A user's language setting is one of the languages the catalogs speak.
    dependencies: ["TallyLocalization"],
    swiftSettings: swiftSettings
  ),
  .testTarget(
    name: "TallyCoreTests",
    dependencies: [
      "TallyCore",
      // Linked once into the one test binary every test target shares.
      "TallyTestWidth",
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

// MARK: - Storage: repository protocols, and SQLite through GRDB

package.targets += [
  // What the rest of Tally asks of a store (protocols and models, no implementation).
  .target(
    name: "TallyStore",
    dependencies: ["TallyCore"],
    swiftSettings: swiftSettings
  ),
  // The shared contract suite lives here and runs against every implementation.
  .testTarget(
    name: "TallyStoreTests",
    dependencies: [
      "TallyStore", "TallySQLite", "TallyPostgres", "TallyPostgresTesting", "TallyTestFiles", "TallyTestWaiting",
      .product(name: "PostgresNIO", package: "postgres-nio"),
      .product(name: "PropertyBased", package: "swift-property-based"),
    ],
    swiftSettings: swiftSettings
  ),
  // The durable store: one SQLite file (WAL), versioned migrations.
  .target(
    name: "TallySQLite",
    dependencies: [
      "TallyStore",
      "TallySync",
      .product(name: "GRDB", package: "GRDB.swift"),
    ],
    swiftSettings: swiftSettings
  ),
  .testTarget(
    name: "TallySQLiteTests",
    dependencies: [
      "TallySQLite",
      "TallyTestFiles",
      .product(name: "GRDB", package: "GRDB.swift"),
    ],
    resources: [.copy("Fixtures")],
    swiftSettings: swiftSettings
  ),
]

// MARK: - PostgreSQL: the same store for many server instances on one database

package.targets += [
  // The ``Store`` on PostgreSQL through postgres-nio: one file per repository area, versioned
  // migrations under an advisory lock, database rules mapped to the same ``StoreError``s.
  .target(
    name: "TallyPostgres",
    dependencies: [
      "TallyStore",
      "TallySync",
      .product(name: "PostgresNIO", package: "postgres-nio"),
      .product(name: "NIOCore", package: "swift-nio"),
      .product(name: "NIOPosix", package: "swift-nio"),
      .product(name: "Logging", package: "swift-log"),
    ],
    swiftSettings: swiftSettings
  ),
  // For tests: a fresh schema on the PostgreSQL `TALLY_TEST_POSTGRES_URL` names.
  .target(
    name: "TallyPostgresTesting",
    dependencies: ["TallyPostgres", "TallyStore"],
    path: "Tests/Support/TallyPostgresTesting",
    swiftSettings: swiftSettings
  ),
  // For tests: at most four test cases at once per core (see TestWidth.c).
  .target(name: "TallyTestWidth", path: "Tests/Support/TallyTestWidth", publicHeadersPath: "."),
  // For tests: files under one folder per test process, removed when it exits.
  .target(
    name: "TallyTestFiles",
    path: "Tests/Support/TallyTestFiles",
    swiftSettings: swiftSettings
  ),
  // For tests: the one wait for what a server, a listener or a process does in its own time.
  .target(
    name: "TallyTestWaiting",
    path: "Tests/Support/TallyTestWaiting",
    swiftSettings: swiftSettings
  ),
]

// MARK: - Sync: every device a replica (SPEC 11)

package.targets += [
  // Hybrid clock stamps, changes, the merge rule and the push and pull shapes: pure, plus
  // the repository protocol a store implements for sync.
  .target(
    name: "TallySync",
    dependencies: ["TallyCore", "TallyStore"],
    swiftSettings: swiftSettings
  ),
  // The device side: an outbox and a cursor over any SyncRepository, and a transport to the
  // server (async-http-client), so an Apple app can embed it over its own SQLite file.
  .target(
    name: "TallySyncClient",
    dependencies: [
      "TallySync",
      "TallyStore",
      .product(name: "AsyncHTTPClient", package: "async-http-client"),
    ],
    swiftSettings: swiftSettings
  ),
  // Replicas against the real server in process, on real SQLite files.
  .testTarget(
    name: "TallySyncClientTests",
    dependencies: [
      "TallySyncClient",
      "TallySync",
      "TallyServer",
      "TallyHTTP",
      "TallySQLite",
      "TallyPostgres",
      "TallyPostgresTesting",
      "TallyTestFiles",
      "TallyTestWaiting",
      "TallyAccounts",
      "TallyStore",
      "TallyCore",
      .product(name: "PropertyBased", package: "swift-property-based"),
      .product(name: "Hummingbird", package: "hummingbird"),
      .product(name: "HummingbirdTesting", package: "hummingbird"),
      .product(name: "AsyncHTTPClient", package: "async-http-client"),
      .product(name: "Logging", package: "swift-log"),
    ],
    swiftSettings: swiftSettings
  ),
  .testTarget(
    name: "TallySyncTests",
    dependencies: [
      "TallySync",
      "TallyCore",
      .product(name: "PropertyBased", package: "swift-property-based"),
    ],
    swiftSettings: swiftSettings
  ),
]

// MARK: - Wire: the JSON shapes `--json` prints and the API sends, shared so they cannot drift

package.targets += [
  .target(
    name: "TallyWire",
    dependencies: ["TallyCore", "TallyStore"],
    swiftSettings: swiftSettings
  ),
]

// MARK: - Import: other trackers' files read into Tally's habits, and merged without loss

package.targets += [
  // Loop Habit Tracker (SQLite backup, CSV zip), Beaver Habit Tracker JSON and Tally's entry
  // CSV become one shape, ``ImportedHistory``; ``ImportPlanner`` matches it against what the
  // user has. Reads files, never writes: the store does that in one transaction.
  .target(
    name: "TallyImport",
    dependencies: [
      "TallyCore",
      "TallyStore",
      .product(name: "GRDB", package: "GRDB.swift"),
      .product(name: "ZIPFoundation", package: "ZIPFoundation"),
    ],
    swiftSettings: swiftSettings
  ),
  .testTarget(
    name: "TallyImportTests",
    dependencies: [
      "TallyImport",
      "TallyTestFiles",
      "TallyCore",
      "TallyCoreReference",
      "TallyStore",
      "TallySQLite",
      .product(name: "GRDB", package: "GRDB.swift"),
      .product(name: "ZIPFoundation", package: "ZIPFoundation"),
      .product(name: "PropertyBased", package: "swift-property-based"),
    ],
    resources: [.copy("Fixtures")],
    swiftSettings: swiftSettings
  ),
]

// MARK: - Localization: i18next catalogs, CLDR plurals from ICU, language choice (Foundation only)

package.targets += [
  // Reads the locale files, picks a language from a setting or Accept-Language, looks strings
  // up with English as the fallback, and checks every catalog against English (docs/translating.md).
  .target(
    name: "TallyLocalization",
    swiftSettings: swiftSettings,
    // ICU's plural rules come from the toolchain's copy (the `_FoundationICU` module that
    // Foundation itself uses), so nothing is installed; the module map names no library.
    linkerSettings: [.linkedLibrary("_FoundationICU", .when(platforms: [.linux]))]
  ),
  .testTarget(
    name: "TallyLocalizationTests",
    dependencies: [
      "TallyLocalization",
      .product(name: "PropertyBased", package: "swift-property-based"),
    ],
    swiftSettings: swiftSettings
  ),
]

// MARK: - Sources: a TMDB-compatible client over HTTP

package.targets += [
  // Searches shows, fetches seasons, episodes and watch providers; rate limits, retries,
  // time-outs and a response cache live here, behind `ShowSource` so the rest can use a fake.
  .target(
    name: "TallyTMDB",
    dependencies: [
      "TallyCore",
      "TallyStore",
      .product(name: "AsyncHTTPClient", package: "async-http-client"),
    ],
    swiftSettings: swiftSettings
  ),
  // Runs the client against a local stub server serving TMDB's documented shapes.
  .testTarget(
    name: "TallyTMDBTests",
    dependencies: [
      "TallyTMDB",
      "TallyCore",
      "TallyStore",
      "TallySQLite",
      .product(name: "Hummingbird", package: "hummingbird"),
      .product(name: "HummingbirdTesting", package: "hummingbird"),
    ],
    swiftSettings: swiftSettings
  ),
]

// MARK: - Web Push: RFC 8291 message encryption and RFC 8292 VAPID, no I/O

package.targets += [
  // Builds the POST a push service expects (encrypted body, VAPID Authorization, RFC 8030
  // headers); sending it is the server's job.
  .target(
    name: "TallyPush",
    dependencies: [
      "TallyCore",
      .product(name: "Crypto", package: "swift-crypto"),
      .product(name: "JWTKit", package: "jwt-kit"),
    ],
    swiftSettings: swiftSettings
  ),
  .testTarget(
    name: "TallyPushTests",
    dependencies: [
      "TallyCore",
      "TallyPush",
      .product(name: "Crypto", package: "swift-crypto"),
      .product(name: "JWTKit", package: "jwt-kit"),
    ],
    swiftSettings: swiftSettings
  ),
]

// MARK: - OpenID Connect: sign-in through a person's own identity provider, network and clock injected

package.targets += [
  // Discovery, the authorization request (state, nonce, PKCE), the code exchange and the ID
  // token's checks (docs/oidc.md); the server passes the transport that reaches the provider.
  .target(
    name: "TallyOIDC",
    dependencies: [
      "TallyCore",
      .product(name: "Crypto", package: "swift-crypto"),
      .product(name: "JWTKit", package: "jwt-kit"),
    ],
    swiftSettings: swiftSettings
  ),
  // Against a provider of the tests' own, signing with keys made in the test.
  .testTarget(
    name: "TallyOIDCTests",
    dependencies: ["TallyOIDC", "TallyOIDCTesting", "TallyCore"],
    swiftSettings: swiftSettings
  ),
  // An OpenID Connect provider of the tests' own, over swift-crypto, for the client's tests
  // and the server's.
  .target(
    name: "TallyOIDCTesting",
    dependencies: [
      "TallyOIDC",
      "TallyCore",
      .product(name: "Crypto", package: "swift-crypto"),
      .product(name: "CryptoExtras", package: "swift-crypto"),
    ],
    path: "Tests/Support/TallyOIDCTesting",
    swiftSettings: swiftSettings
  ),
]

// What every server test target needs: the in-process server over a fresh store.
let serverTestDependencies: [Target.Dependency] = [
      "TallyServerTesting",
      "TallyHTTP",
      "TallyTestFiles",
      "TallyTestWaiting",
      "TallySQLite",
      "TallyStore",
      "TallyCore",
      .product(name: "Hummingbird", package: "hummingbird"),
      .product(name: "HummingbirdTesting", package: "hummingbird"),
]

// MARK: - Server: accounts, then the Hummingbird 2 application over any Store

package.targets += [
  // Passwords (bcrypt), session and API-token secrets (SHA-256 of random bytes), owner set-up
  // and sign-in: the rules, over the store, with the clock and randomness injected.
  .target(
    name: "TallyAccounts",
    dependencies: [
      "TallyCore",
      "TallyStore",
      "TallyOIDC",
      .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
      .product(name: "Crypto", package: "swift-crypto"),
    ],
    swiftSettings: swiftSettings
  ),
  .testTarget(
    name: "TallyAccountsTests",
    dependencies: ["TallyAccounts", "TallyStore", "TallySQLite"],
    swiftSettings: swiftSettings
  ),
  // Reminders leaving the server: the sender that runs beside it, webhook and Web Push posts.
  .target(
    name: "TallyDelivery",
    dependencies: [
      "TallyCore",
      "TallyStore",
      "TallyPush",
      .product(name: "AsyncHTTPClient", package: "async-http-client"),
      .product(name: "NIOCore", package: "swift-nio"),
      .product(name: "NIOHTTP1", package: "swift-nio"),
      .product(name: "Logging", package: "swift-log"),
      .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
    ],
    swiftSettings: swiftSettings
  ),
  // What the API and the web pages share: the request context, the services, problem+json,
  // bounded JSON bodies, the response cache and the configuration.
  .target(
    name: "TallyHTTP",
    dependencies: [
      "TallyCore",
      "TallyStore",
      "TallySync",
      "TallyAccounts",
      "TallyOIDC",
      "TallyWire",
      "TallyTMDB",
      "TallyPush",
      .product(name: "Hummingbird", package: "hummingbird"),
    ],
    swiftSettings: swiftSettings
  ),
  // The JSON API (docs/api.md) with its OpenAPI document in Resources/openapi.
  .target(
    name: "TallyAPI",
    dependencies: [
      "TallyHTTP",
      "TallyCore",
      "TallyStore",
      "TallySync",
      "TallyAccounts",
      "TallyWire",
      "TallyImport",
      "TallyTMDB",
      "TallyPush",
      "TallyHeap",
      .product(name: "Hummingbird", package: "hummingbird"),
      .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
    ],
    resources: [.copy("Resources")],
    swiftSettings: swiftSettings
  ),
  // The web app: pages, view models, Mustache templates and assets in Resources.
  .target(
    name: "TallyWeb",
    dependencies: [
      "TallyHTTP",
      "TallyCore",
      "TallyStore",
      "TallyAccounts",
      "TallyOIDC",
      "TallyLocalization",
      .product(name: "Logging", package: "swift-log"),
      "TallyWire",
      "TallyTMDB",
      .product(name: "Hummingbird", package: "hummingbird"),
      .product(name: "Mustache", package: "swift-mustache"),
    ],
    resources: [.copy("Resources")],
    swiftSettings: swiftSettings
  ),
  // Composition only: configuration into services, middleware, `buildApplication`.
  .target(
    name: "TallyServer",
    dependencies: [
      "TallyHTTP",
      "TallyAPI",
      "TallyWeb",
      "TallyDelivery",
      "TallyCore",
      "TallyStore",
      "TallySync",
      "TallySQLite",
      "TallyPostgres",
      "TallyAccounts",
      "TallyTMDB",
      "TallyPush",
      "TallyHeap",
      "TallyOIDC",
      .product(name: "Hummingbird", package: "hummingbird"),
      .product(name: "AsyncHTTPClient", package: "async-http-client"),
      .product(name: "Logging", package: "swift-log"),
      .product(name: "Metrics", package: "swift-metrics"),
      .product(name: "Prometheus", package: "swift-prometheus"),
      .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      .product(name: "NIOHTTP1", package: "swift-nio"),
      .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
    ],
    swiftSettings: swiftSettings
  ),
  // For the server's tests: a router or a live server over a fresh store, a webhook receiver
  // and a push service on loopback, and the OpenAPI schema check.
  .target(
    name: "TallyServerTesting",
    dependencies: [
      "TallyServer",
      "TallyHTTP",
      "TallyAPI",
      "TallyDelivery",
      "TallySQLite",
      "TallyAccounts",
      "TallyPush",
      "TallyStore",
      "TallySync",
      "TallyTMDB",
      "TallyCore",
      "TallyOIDC",
      .product(name: "Crypto", package: "swift-crypto"),
      .product(name: "JWTKit", package: "jwt-kit"),
      .product(name: "Hummingbird", package: "hummingbird"),
      .product(name: "HummingbirdTesting", package: "hummingbird"),
    ],
    path: "Tests/Support/TallyServerTesting",
    swiftSettings: swiftSettings
  ),
  .testTarget(
    name: "TallyAPITests",
    dependencies: serverTestDependencies + [
      "TallyAPI",
      "TallyServer",
      "TallyPush",
      "TallyAccounts",
      "TallySync",
      "TallyTMDB",
      .product(name: "PropertyBased", package: "swift-property-based"),
    ],
    swiftSettings: swiftSettings
  ),
  .testTarget(
    name: "TallyWebTests",
    dependencies: serverTestDependencies + [
      "TallyWeb",
      "TallyPush",
      "TallyServer",
      "TallyAccounts",
      "TallyTMDB",
      "TallyOIDC",
      "TallyOIDCTesting",
      "TallyLocalization",
      .product(name: "NIOCore", package: "swift-nio"),
    ],
    swiftSettings: swiftSettings
  ),
  .testTarget(
    name: "TallyDeliveryTests",
    dependencies: serverTestDependencies + [
      "TallyDelivery",
      "TallyPush",
      "TallyPostgres",
      "TallyPostgresTesting",
      .product(name: "Crypto", package: "swift-crypto"),
      .product(name: "JWTKit", package: "jwt-kit"),
    ],
    swiftSettings: swiftSettings
  ),
  // The composition: proxies, limits, shutdown, races, backups, several instances on one database.
  .testTarget(
    name: "TallyServerTests",
    dependencies: [
      "TallyServer",
      "TallyServerTesting",
      "TallyHeap",
      "TallyHTTP",
      "TallyPush",
      "TallySQLite",
      "TallyPostgres",
      "TallyPostgresTesting",
      "TallyTestFiles",
      "TallySync",
      .product(name: "Crypto", package: "swift-crypto"),
      .product(name: "JWTKit", package: "jwt-kit"),
      "TallyTMDB",
      "TallyAccounts",
      "TallyStore",
      "TallyCore",
      .product(name: "NIOEmbedded", package: "swift-nio"),
      .product(name: "NIOHTTP1", package: "swift-nio"),
      .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
      .product(name: "Hummingbird", package: "hummingbird"),
      .product(name: "HummingbirdTesting", package: "hummingbird"),
      .product(name: "Prometheus", package: "swift-prometheus"),
      .product(name: "PropertyBased", package: "swift-property-based"),
    ],
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
      "TallySync",
      "TallySyncClient",
      "TallySQLite",
      "TallyPostgres",
      "TallyAccounts",
      "TallyServer",
      "TallyHTTP",
      "TallyOIDC",
      "TallyDelivery",
      "TallyPush",
      "TallyWeb",
      "TallyWire",
      "TallyImport",
      "TallyTMDB",
      "TallyBuildInfo",
      .product(name: "ArgumentParser", package: "swift-argument-parser"),
      .product(name: "AsyncHTTPClient", package: "async-http-client"),
      .product(name: "NIOCore", package: "swift-nio"),
      .product(name: "NIOHTTP1", package: "swift-nio"),
    ],
    swiftSettings: swiftSettings
  ),
  .testTarget(
    name: "TallyCLITests",
    dependencies: [
      "TallyCLI", "TallyCore", "TallyStore", "TallySQLite", "TallyTMDB", "TallySync", "TallyPostgres",
      "TallyPostgresTesting", "TallyTestFiles", "TallyTestWaiting", "TallyServer",
      .product(name: "Hummingbird", package: "hummingbird"),
      .product(name: "HummingbirdTesting", package: "hummingbird"),
    ],
    swiftSettings: swiftSettings
  ),
  // The commit a release was built from, which scripts/release passes to the C compiler.
  .target(name: "TallyBuildInfo"),
  // glibc's `malloc_trim` and `mallopt`, which Swift's Glibc module does not bring.
  .target(name: "TallyHeap"),
  // A few lines: read the process's arguments, environment and clock, call TallyCLI, exit.
  .executableTarget(
    name: "tally",
    dependencies: ["TallyCLI"],
    swiftSettings: swiftSettings
  ),
]
