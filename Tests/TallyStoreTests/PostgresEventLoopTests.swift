import Foundation
import PostgresNIO
import TallyPostgresTesting
import Testing

@testable import TallyPostgres

/// A store call runs on its connection's event loop (``EventLoopExecutor``): each answer resumes
/// the call on the thread that read it, and the next statement is written from there, rather
/// than every round trip handing the call to Swift's pool and back.
@Suite(.enabled(if: PostgresTesting.url != nil, Comment(rawValue: PostgresTesting.skipped)))
struct PostgresEventLoopTests {
  @Test func readsAndWritesResumeOnTheirConnectionsLoop() async throws {
    let database = try await PostgresTesting.database()
    let read = try await database.withConnection { connection in
      try await connection.run("SELECT 1")
      return connection.eventLoop.inEventLoop
    }
    #expect(read)
    let written = try await database.transaction { connection in
      try await connection.run("SELECT 1")
      let first = connection.eventLoop.inEventLoop
      try await connection.run("SELECT 2")
      return first && connection.eventLoop.inEventLoop
    }
    #expect(written)
  }

  /// What a call awaits besides its statements (here a sleep) resumes on the loop too, and the
  /// caller goes on off it.
  @Test func theCallerIsNotLeftOnTheLoop() async throws {
    let database = try await PostgresTesting.database()
    let loop = try await database.withConnection { connection in
      try await Task.sleep(for: .milliseconds(1))
      #expect(connection.eventLoop.inEventLoop)
      return connection.eventLoop
    }
    #expect(!loop.inEventLoop)
  }
}
