import Foundation
import Synchronization
import Testing

@testable import TallyPostgres

/// Announcements asked for while one is sent wait for the next send, which the first of their
/// callers makes for all of them: never the one under way, which was written before them.
@Suite struct SentTogetherTests {
  /// Sends that end only when the test says, noting who sent what.
  final class Wire: Sendable {
    private let state = Mutex<(sent: [(by: Int, items: [Int])], open: [CheckedContinuation<Bool, Never>])>(([], []))

    func send(by caller: Int) -> SentTogether<Int>.Send {
      { items in
        await withCheckedContinuation { continuation in
          self.state.withLock { state in
            state.sent.append((caller, items))
            state.open.append(continuation)
          }
        }
      }
    }

    var sent: [(by: Int, items: [Int])] { state.withLock { $0.sent } }
    var open: Int { state.withLock { $0.open.count } }

    /// Ends the oldest send under way: it went, or it failed.
    func end(went: Bool) {
      let continuation = state.withLock { $0.open.removeFirst() }
      continuation.resume(returning: went)
    }
  }

  final class SendLog: Sendable {
    let sends = Mutex<[(items: [Int], went: Bool)]>([])
  }

  @Test func itemsAskedForDuringASendGoTogetherInTheNextSentByTheFirstOfTheirCallers() async throws {
    let line = SentTogether<Int>()
    let wire = Wire()
    let first = Task { await line.send([1], by: wire.send(by: 1)) }
    try await until { wire.open == 1 }
    var later: [Task<Bool, Never>] = []
    for caller in 2...4 {
      later.append(Task { await line.send([caller * 10, caller * 10 + 1], by: wire.send(by: caller)) })
      try await until { line.waiting == caller - 1 }
    }
    #expect(wire.sent.count == 1)
    wire.end(went: true)
    #expect(await first.value)
    try await until { wire.open == 1 }
    #expect(wire.sent.last?.by == 2)
    #expect(wire.sent.last?.items == [20, 21, 30, 31, 40, 41])
    // None of them is answered before the send that carries its items has ended.
    try await Task.sleep(for: .milliseconds(50))
    #expect(wire.open == 1)
    wire.end(went: true)
    for call in later { #expect(await call.value) }
    #expect(wire.sent.count == 2)
    #expect(line.waiting == 0)
    // Alone again: a caller sends its own at once.
    let alone = Task { await line.send([5], by: wire.send(by: 5)) }
    try await until { wire.open == 1 }
    #expect(wire.sent.last?.by == 5)
    wire.end(went: true)
    #expect(await alone.value)
  }

  @Test func aFailedSendIsTheAnswerOfEveryCallerItCarriedAndTheNextStillGoes() async throws {
    let line = SentTogether<Int>()
    let wire = Wire()
    let first = Task { await line.send([1], by: wire.send(by: 1)) }
    try await until { wire.open == 1 }
    let second = Task { await line.send([2], by: wire.send(by: 2)) }
    let third = Task { await line.send([3], by: wire.send(by: 3)) }
    try await until { line.waiting == 2 }
    wire.end(went: true)
    try await until { wire.open == 1 }
    let fourth = Task { await line.send([4], by: wire.send(by: 4)) }
    try await until { line.waiting == 1 }
    wire.end(went: false)
    #expect(await first.value)
    #expect(await second.value == false)
    #expect(await third.value == false)
    try await until { wire.open == 1 }
    #expect(wire.sent.last?.items == [4])
    wire.end(went: true)
    #expect(await fourth.value)
  }

  /// However many callers come and however the sends end, each is answered once, by a send
  /// that carried its items and began after it asked, and each item is sent exactly once.
  @Test func everyCallerIsAnsweredByASendThatCarriedItsItems() async throws {
    let line = SentTogether<Int>()
    let log = SendLog()
    let answers = await withTaskGroup(of: (Int, Bool).self) { group in
      for caller in 0..<200 {
        group.addTask {
          let went = await line.send([caller]) { items in
            await Task.yield()
            let went = items.min()! % 3 != 0
            log.sends.withLock { $0.append((items, went)) }
            return went
          }
          return (caller, went)
        }
      }
      var answers: [Int: Bool] = [:]
      for await (caller, went) in group { answers[caller] = went }
      return answers
    }
    let sends = log.sends.withLock { $0 }
    #expect(sends.flatMap(\.items).sorted() == Array(0..<200))
    for send in sends {
      for item in send.items { #expect(answers[item] == send.went) }
    }
    #expect(line.waiting == 0)
  }
}
