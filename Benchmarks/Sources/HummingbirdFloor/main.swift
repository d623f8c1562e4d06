import Hummingbird

// What a request costs Hummingbird itself: one route answering "ok", no middleware, nothing
// read. `live_load.py --floor` sets an empty poll against it (docs/sync.md "Live changes").
//   swift build -c release --package-path Benchmarks --product hummingbird-floor
//   .build/release/hummingbird-floor PORT
let router = Router()
router.get("/") { _, _ in "ok" }
let port = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 18_299
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()
