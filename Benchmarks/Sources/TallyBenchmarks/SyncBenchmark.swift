import AsyncHTTPClient
import Foundation
import GRDB
import TallyAccounts
import TallyCore
import TallySQLite
import TallyStore
import TallySync
import TallySyncClient

/// `tally-benchmarks sync [--tally PATH]`: issue 13's figures against a real `tally serve`
/// (release build) on loopback, each beside a baseline measured in the same run.
///
/// - first pull of 50 habits × 10 years into an empty replica, against restoring the same
///   snapshot into an empty file (the same rows written locally, no network, no merge);
/// - an empty poll (cursor at the head), against `GET /healthz` on the same connection pool,
///   and the store's own time for it (the server's part);
/// - one change's round trip (mark a day, push, pull);
/// - 1,000 devices polling with nothing new, one after another.
enum SyncBenchmark {
  static func run(_ arguments: [String]) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-sync-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let serverPath = folder.appendingPathComponent("server.sqlite").path
    let today = Day("2026-11-21")!

    // The account: 50 habits × 10 years, through one restore.
    let serverStore = SQLiteStore(try AppDatabase.open(at: serverPath))
    let accounts = AccountService(store: serverStore, hasher: PasswordHasher(cost: 4))
    let owner = try await accounts.addUser(
      name: "ada", password: "correct horse", settings: UserSettings(timeZone: "UTC"), at: Date())
    let snapshot = syntheticSnapshot(today: today)
    let entries = snapshot.habits.map(\.entries.count).reduce(0, +)
    let restoreStart = ContinuousClock.now
    let restoreCPUStart = processCPUSeconds()
    _ = try await SQLiteStore(try AppDatabase.open(at: folder.appendingPathComponent("baseline.sqlite").path))
      .restore(snapshot, into: .newUser(id: UUID(), name: "baseline"))
    let restoreSeconds = (ContinuousClock.now - restoreStart).seconds
    let restoreCPU = processCPUSeconds() - restoreCPUStart
    let loaded = try await serverStore.restore(
      UserSnapshot(settings: owner.settings, habits: snapshot.habits, journal: [], chat: [], shows: [], episodes: [], prices: []),
      into: .emptyUser(owner.id))
    let token = try await accounts.createAPIToken(name: "bench", for: loaded.id, at: Date()).secret.secret

    guard case .binary(let tally) = try StorageBenchmark.runner(arguments) else {
      throw BenchmarkFailure(description: "the sync benchmark needs a tally binary: swift build -c release --product tally")
    }
    let port = Int.random(in: 20_000..<40_000)
    let server = Process()
    server.executableURL = tally
    server.arguments = ["serve", "--db", serverPath, "--port", "\(port)"]
    server.standardOutput = FileHandle.nullDevice
    server.standardError = FileHandle.nullDevice
    try server.run()
    defer { server.terminate() }
    let url = "http://127.0.0.1:\(port)"
    let transport = HTTPSyncTransport(baseURL: url, token: token)
    try await waitForServer(transport)

    print("Sync, \(snapshot.habits.count) habits × 10 years (\(entries) entries), tally serve on loopback:")
    // First pull into an empty replica.
    let replica = SQLiteStore(try AppDatabase.open(at: folder.appendingPathComponent("replica.sqlite").path))
    let local = try await replica.createUser(User(id: UUID(), name: "ada", settings: UserSettings(timeZone: "UTC")))
    _ = try await replica.attachRemote(SyncRemote(url: url, token: token), for: local.id)
    let pullStart = ContinuousClock.now
    let (clientCPU, serverCPU) = (processCPUSeconds(), processCPUSeconds(pid: server.processIdentifier))
    let summary = try await SyncClient(store: replica, user: local.id, transport: transport).sync()
    let pullSeconds = (ContinuousClock.now - pullStart).seconds
    let replicaCPU = processCPUSeconds() - clientCPU
    let serverPart = processCPUSeconds(pid: server.processIdentifier).map { $0 - (serverCPU ?? 0) }
    let copied = try await replica.snapshot(of: local.id).habits.map(\.entries.count).reduce(0, +)
    guard copied == entries else { throw BenchmarkFailure(description: "the replica holds \(copied) entries, not \(entries)") }
    print("  first pull, end to end: \(format(pullSeconds))  (\(summary.pulled) changes; \(ratio(pullSeconds, restoreSeconds)) restoring the same snapshot locally, \(format(restoreSeconds)))")
    print("    CPU time: the replica \(format(replicaCPU)), the server \(serverPart.map(format) ?? "unknown"); the local restore \(format(restoreCPU))")

    try await splitFirstPull(url: url, token: token, folder: folder)

    // An empty poll.
    let remote = try await replica.syncRemote(for: local.id)
    let polls = 300
    let pollSeconds = try await median(polls) { _ = try await transport.pull(cursor: remote?.cursor, limit: 1_000) }
    let health = try await median(polls) { try await healthz(url) }
    let head = SyncCursor(remote!.cursor!)!.position
    let storeSeconds = try await median(polls) { _ = try await serverStore.syncChanges(for: loaded.id, after: head, limit: 1_000) }
    print("  empty poll: \(format(pollSeconds)) round trip (\(ratio(pollSeconds, health)) GET /healthz, \(format(health))); the store's part \(format(storeSeconds))")

    // One change's round trip.
    let habit = snapshot.habits[0].habit.id
    var day = today
    let roundTrip = try await median(50) {
      day = day.adding(days: -1)
      try await replica.setDay(day, of: habit, to: .nothing, for: local.id)
      _ = try await SyncClient(store: replica, user: local.id, transport: transport).sync()
    }
    print("  one change, mark then sync both ways: \(format(roundTrip)) (\(ratio(roundTrip, pollSeconds)) an empty poll)")

    // A thousand devices with nothing new.
    let start = ContinuousClock.now
    for _ in 0..<1_000 { _ = try await transport.pull(cursor: remote?.cursor, limit: 1_000) }
    let thousand = (ContinuousClock.now - start).seconds
    print("  1,000 devices polling, one after another: \(format(thousand)) (\(Int(1_000 / thousand)) polls/s; \(ratio(thousand / 1_000, health)) /healthz each)")
  }

  /// The first pull's parts apart: the pages fetched as text, read into changes and their
  /// entries into rows, and merged into another empty replica, each timed alone.
  static func splitFirstPull(url: String, token: String, folder: URL) async throws {
    var texts: [Data] = []
    var cursor: String?
    let fetchStart = ContinuousClock.now
    while true {
      var request = HTTPClientRequest(url: url + "/api/v1/sync?limit=5000" + (cursor.map { "&cursor=" + $0.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! } ?? ""))
      request.headers.add(name: "Authorization", value: "Bearer \(token)")
      let data = Data(try await HTTPClient.shared.execute(request, timeout: .seconds(60)).body.collect(upTo: 256 << 20).readableBytesView)
      texts.append(data)
      let page = try SyncJSONReader.pull(data)
      cursor = page.cursor
      if !page.more { break }
    }
    let fetchSeconds = (ContinuousClock.now - fetchStart).seconds
    let readStart = processCPUSeconds()
    let pages = try texts.map { try SyncJSONReader.pull($0) }
    let readCPU = processCPUSeconds() - readStart
    // The client writes each page's entries out as rows while the page before merges.
    let runStart = processCPUSeconds()
    let runs = pages.map { SyncEntryRun($0.changes) }
    let runCPU = processCPUSeconds() - runStart
    let replica = SQLiteStore(try AppDatabase.open(at: folder.appendingPathComponent("split.sqlite").path))
    let local = try await replica.createUser(User(id: UUID(), name: "ada", settings: UserSettings(timeZone: "UTC")))
    _ = try await replica.attachRemote(SyncRemote(url: url, token: token), for: local.id)
    let mergeStart = processCPUSeconds()
    for (page, run) in zip(pages, runs) { _ = try await replica.applyPulled(page, entries: run, for: local.id) }
    let mergeCPU = processCPUSeconds() - mergeStart
    let floorCPU = try await sqliteFloor(of: folder.appendingPathComponent("split.sqlite"), user: local.id)
    print("    apart: fetching \(texts.count) pages \(format(fetchSeconds)) (with reading); reading them \(format(readCPU)) CPU, their entries as rows \(format(runCPU)) CPU; merging them \(format(mergeCPU)) CPU")
    print("    SQLite alone writing the same entries' rows, 5,000 to a statement: \(format(floorCPU)) CPU (the merge is \(ratio(mergeCPU, floorCPU)))")
  }

  /// CPU time SQLite takes to write a pulled replica's entries again, the days with their
  /// stamps and feed positions, one statement per 5,000 read from a JSON array: the least a
  /// merge that keeps this schema can cost.
  static func sqliteFloor(of replica: URL, user: UUID) async throws -> Double {
    let copy = replica.deletingLastPathComponent().appendingPathComponent("floor.sqlite")
    let pool = try DatabasePool(path: replica.path)
    try await pool.writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [copy.path]) }
    let database = try DatabaseQueue(path: copy.path)
    let pages = try await database.write { db in
      let rows = try String.fetchAll(
        db,
        sql: """
          SELECT json_group_array(json_array(habit_id, day, status, note, amount, user_id, stamp, position))
          FROM (SELECT *, (row_number() OVER (ORDER BY position) - 1) / 5000 AS page FROM habit_entries)
          GROUP BY page ORDER BY page
          """)
      try db.execute(sql: "DELETE FROM habit_entries")
      return rows
    }
    try await database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL; PRAGMA cache_size = -32768") }
    let start = processCPUSeconds()
    for page in pages {
      try await database.write { db in
        try db.execute(
          sql: """
            INSERT INTO habit_entries (habit_id, day, status, note, amount, user_id, stamp, position)
            SELECT r.value ->> 0, r.value ->> 1, r.value ->> 2, r.value ->> 3, r.value ->> 4, r.value ->> 5,
              r.value ->> 6, r.value ->> 7
            FROM json_each(?) r
            """,
          arguments: [page])
      }
    }
    return processCPUSeconds() - start
  }

  static func syntheticSnapshot(today: Day) -> UserSnapshot {
    var rng = SplitMix64(state: 13)
    let habits = (0..<50).map { index in
      let (habit, entries) = syntheticHabit(index: index, frequency: .daily, years: 10, today: today, notePercent: 2, rng: &rng)
      return UserSnapshot.HabitWithEntries(habit: habit, entries: entries)
    }
    return UserSnapshot(
      settings: UserSettings(timeZone: "UTC"), habits: habits, journal: [], chat: [], shows: [], episodes: [], prices: [])
  }

  static func waitForServer(_ transport: HTTPSyncTransport) async throws {
    for _ in 0..<200 {
      if (try? await transport.pull(cursor: nil, limit: 1)) != nil { return }
      try await Task.sleep(for: .milliseconds(50))
    }
    throw BenchmarkFailure(description: "tally serve did not answer")
  }

  static func healthz(_ url: String) async throws {
    let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url + "/healthz"), timeout: .seconds(10))
    _ = try await response.body.collect(upTo: 1 << 16)
    guard response.status == .ok else { throw BenchmarkFailure(description: "/healthz failed") }
  }

  static func median(_ count: Int, _ body: () async throws -> Void) async throws -> Double {
    var times: [Double] = []
    for _ in 0..<count {
      let start = ContinuousClock.now
      try await body()
      times.append((ContinuousClock.now - start).seconds)
    }
    return times.sorted()[count / 2]
  }

  static func ratio(_ value: Double, _ baseline: Double) -> String {
    String(format: "%.1f×", value / baseline)
  }
}
