import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import TallyHTTP
import TallyServer
import TallyServerTesting
import TallyTestFiles
import Testing

/// Issue 17's races, run as they were found: many real clients on their own connections to a
/// real server on a SQLite file, all at once.
@Suite struct RaceTests {
  /// `count` requests at once, each on its own connection; the statuses that came back.
  static func together(
    _ count: Int, port: Int, _ request: @escaping @Sendable (Int) -> TestClient.Request
  ) async throws -> [HTTPResponse.Status] {
    try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
      for number in 0..<count {
        group.addTask {
          try await TestClient.withClient(host: "127.0.0.1", port: port) { connection in
            try await connection.execute(request(number)).head.status
          }
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
  }

  static func json(_ method: HTTPRequest.Method, _ uri: String, _ text: String, _ headers: HTTPFields) -> TestClient.Request {
    var headers = headers
    headers[.contentType] = "application/json"
    return TestClient.Request(uri, method: method, headers: headers, body: ByteBuffer(string: text))
  }

  @Test func twentyClientsCreatingOneNameMakeOneHabit() async throws {
    try await withTemporaryDatabase { path in
      try await TestServer(databasePath: path).testLive { client in
        let port = try #require(client.port)
        let token = try await client.bearer(try await client.setUpOwner())
        // Differently cased and spaced: still one name.
        let spellings = ["Dup 0", "dup 0", " DUP 0", "Dup 0 "]
        let statuses = try await Self.together(20, port: port) { number in
          Self.json(.post, "/api/v1/habits", #"{"name":"\#(spellings[number % spellings.count])"}"#, token)
        }
        #expect(statuses.filter { $0 == .created }.count == 1)
        #expect(statuses.filter { $0 == .conflict }.count == 19)
        let habits = try await client.send(.get, "/api/v1/habits", headers: token).array
        #expect(habits.count == 1)
      }
    }
  }

  @Test func tenBrowsersPostingTheHabitFormAtOnceMakeOneHabit() async throws {
    try await withTemporaryDatabase { path in
      try await TestServer(databasePath: path).testLive { client in
        let port = try #require(client.port)
        let session = try await client.setUpOwner()
        var headers = session
        headers[.contentType] = "application/x-www-form-urlencoded"
        headers[HTTPField.Name("Sec-Fetch-Site")!] = "same-origin"
        let form = headers
        let statuses = try await Self.together(10, port: port) { _ in
          TestClient.Request(
            "/habits", method: .post, headers: form,
            body: ByteBuffer(string: "name=Dup+web&color=%238B5CF6&frequency=daily&reminder=none"))
        }
        #expect(statuses.filter { $0 == .seeOther }.count == 1, "\(statuses)")
        #expect(statuses.filter { $0 == .unprocessableContent }.count == 9, "\(statuses)")
        let names = try await client.send(.get, "/api/v1/habits", headers: session).array.compactMap { $0["name"] as? String }
        #expect(names == ["Dup web"])
      }
    }
  }

  @Test func sixClientsRenamingToOneNameLeaveOneHabitWithIt() async throws {
    try await withTemporaryDatabase { path in
      try await TestServer(databasePath: path).testLive { client in
        let port = try #require(client.port)
        let token = try await client.bearer(try await client.setUpOwner())
        var ids: [String] = []
        for number in 0..<6 {
          ids.append(try #require(try await client.addHabit("Habit \(number)", headers: token)["id"] as? String))
        }
        let targets = ids
        let statuses = try await Self.together(6, port: port) { number in
          Self.json(.patch, "/api/v1/habits/\(targets[number])", #"{"name":"Same"}"#, token)
        }
        #expect(statuses.filter { $0 == .ok }.count == 1)
        let conflicts = statuses.filter { $0 == .conflict }.count
        #expect(conflicts == 5)
        let names = try await client.send(.get, "/api/v1/habits", headers: token).array.compactMap { $0["name"] as? String }
        #expect(names.filter { $0 == "Same" }.count == 1)
      }
    }
  }

  @Test func raceLosersHearTheUsualSentence() async throws {
    try await withTemporaryDatabase { path in
      try await TestServer(databasePath: path).testLive { client in
        let token = try await client.bearer(try await client.setUpOwner())
        _ = try await client.addHabit("Read", headers: token)
        let again = try await client.send(.post, "/api/v1/habits", json: ["name": "read"], headers: token)
        #expect(again.status == .conflict)
        #expect(again.detail.contains("A habit named 'Read' already exists"), "\(again.detail)")
      }
    }
  }

  /// Five tries per name and address in 15 minutes, however many arrive at once.
  @Test func sixteenParallelWrongPasswordsAreCheckedAtMostFiveTimes() async throws {
    try await withTemporaryDatabase { path in
      try await TestServer(databasePath: path).testLive { client in
        let port = try #require(client.port)
        _ = try await client.setUpOwner()
        let statuses = try await Self.together(16, port: port) { _ in
          Self.json(.post, "/api/v1/session", #"{"name":"ada","password":"wrong password"}"#, [:])
        }
        #expect(statuses.filter { $0 == .unauthorized }.count == 5)
        #expect(statuses.filter { $0 == .tooManyRequests }.count == 11)
        // The right password is refused too until the window passes.
        let right = try await client.send(.post, "/api/v1/session", json: ["name": "ada", "password": "correct horse"])
        #expect(right.status == .tooManyRequests)
      }
    }
  }
}

/// A database file in a fresh folder, removed afterwards.
func withTemporaryDatabase<T>(_ body: (String) async throws -> T) async throws -> T {
  let folder = TestFiles.folder("race")
  defer { try? FileManager.default.removeItem(at: folder) }
  return try await body(folder.appendingPathComponent("tally.sqlite").path)
}
