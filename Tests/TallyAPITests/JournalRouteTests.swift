import Foundation
import HTTPTypes
import HummingbirdTesting
import TallyCore
import TallyHTTP
import TallyServer
import TallyServerTesting
import TallyStore
import Testing

@Suite struct JournalRouteTests {
  @Test func anEntryIsWrittenReplacedReadAndCleared() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let empty = try await client.send(.get, "/api/v1/journal/2026-03-07", headers: owner)
      #expect(empty.status == .ok)
      empty.expectSchema("JournalDay")
      #expect(empty.text == #"{"chat":[],"day":"2026-03-07","entry":null}"#)

      let written = try await client.send(.put, "/api/v1/journal/2026-03-07", json: ["text": "first"], headers: owner)
      #expect(written.status == .ok)
      written.expectSchema("JournalDay")
      #expect(written.object["entry"] as? String == "first")

      _ = try await client.send(.put, "/api/v1/journal/2026-03-07", json: ["text": "  second\n"], headers: owner)
      let read = try await client.send(.get, "/api/v1/journal/2026-03-07", headers: owner)
      #expect(read.object["entry"] as? String == "  second\n", "text is kept exactly as written")

      #expect(try await client.send(.delete, "/api/v1/journal/2026-03-07", headers: owner).status == .noContent)
      let cleared = try await client.send(.get, "/api/v1/journal/2026-03-07", headers: owner)
      #expect(cleared.object["entry"] is NSNull)
      #expect(try await client.send(.delete, "/api/v1/journal/2026-03-07", headers: owner).status == .noContent)
    }
  }

  @Test func todayCanBeWrittenButNotTomorrow() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      #expect(try await client.send(.put, "/api/v1/journal/2026-03-08", json: ["text": "today"], headers: owner).status == .ok)
      let future = try await client.send(.put, "/api/v1/journal/2026-03-09", json: ["text": "tomorrow"], headers: owner)
      #expect(future.status == .unprocessableContent)
      #expect(future.object["field"] as? String == "day")
      #expect(future.detail == "The day 2026-03-09 is in the future (today is 2026-03-08); the journal holds days up to today.")
      let chat = try await client.send(.post, "/api/v1/chat/2026-03-09", json: ["text": "tomorrow"], headers: owner)
      #expect(chat.status == .unprocessableContent)
      #expect(chat.detail.contains("the chat holds days up to today"))
      let listed = try await client.send(.get, "/api/v1/journal", headers: owner)
      #expect(listed.array.map { $0["day"] as? String } == ["2026-03-08"], "the refused writes changed nothing")
    }
  }

  @Test(arguments: [
    (#"{"text": "   "}"#, "text"),
    (#"{"text": "hi", "mood": 3}"#, "mood"),
    (#"{}"#, "text"),
    (#"{"text": 7}"#, "text"),
    (#"{"text": "cut\u0000off"}"#, "text"),
  ])
  func aBadEntryBodyIsRefusedByFieldAndChangesNothing(body: String, field: String) async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let response = try await client.send(.put, "/api/v1/journal/2026-03-07", json: body, headers: owner)
      #expect(response.status == .unprocessableContent)
      #expect(response.object["field"] as? String == field)
      response.expectSchema("Problem")
      let day = try await client.send(.get, "/api/v1/journal/2026-03-07", headers: owner)
      #expect(day.object["entry"] is NSNull)
    }
  }

  @Test func aDayThatIsNotADayIsAFourHundred() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      for (method, path) in [
        (HTTPRequest.Method.get, "/api/v1/journal/2026-02-30"), (.put, "/api/v1/journal/today"),
        (.delete, "/api/v1/journal/8-3-2026"), (.get, "/api/v1/chat/2026-3-8"), (.post, "/api/v1/chat/yesterday"),
      ] {
        let response = try await client.send(method, path, json: method == .get || method == .delete ? nil : ["text": "x"], headers: owner)
        #expect(response.status == .badRequest, "\(method) \(path)")
        #expect(response.object["field"] as? String == "day")
      }
    }
  }

  @Test func chatMessagesAreAddedInOrderWithTheirRoles() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let mine = try await client.send(.post, "/api/v1/chat/2026-03-08", json: ["text": "how was it?"], headers: owner)
      #expect(mine.status == .created)
      mine.expectSchema("ChatMessage")
      #expect(mine.object["role"] as? String == "user")
      #expect(mine.object["sentAt"] as? String == "2026-03-08T12:00:00.000Z")
      #expect(mine.object["day"] as? String == "2026-03-08")
      let reply = try await client.send(
        .post, "/api/v1/chat/2026-03-08", json: ["text": "fine", "role": "assistant"], headers: owner)
      #expect(reply.object["role"] as? String == "assistant")

      let chat = try await client.send(.get, "/api/v1/chat/2026-03-08", headers: owner)
      chat.expectSchema(arrayOf: "ChatMessage")
      #expect(chat.array.map { $0["text"] as? String } == ["how was it?", "fine"])
      let day = try await client.send(.get, "/api/v1/journal/2026-03-08", headers: owner)
      day.expectSchema("JournalDay")
      #expect((day.object["chat"] as? [Any])?.count == 2)
    }
  }

  @Test(arguments: [
    (#"{"text": "hi", "role": "robot"}"#, "role"), (#"{"text": ""}"#, "text"), (#"{"text": "hi", "at": "now"}"#, "at"),
    (#"{"text": "\u0000"}"#, "text"),
  ])
  func aBadMessageIsRefusedAndNotAdded(body: String, field: String) async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let response = try await client.send(.post, "/api/v1/chat/2026-03-08", json: body, headers: owner)
      #expect(response.status == .unprocessableContent)
      #expect(response.object["field"] as? String == field)
      #expect(try await client.send(.get, "/api/v1/chat/2026-03-08", headers: owner).array.isEmpty)
    }
  }

  @Test func theListHoldsEveryDayWithAnEntryOrChatInTheRange() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      _ = try await client.send(.put, "/api/v1/journal/2026-03-01", json: ["text": "one"], headers: owner)
      _ = try await client.send(.post, "/api/v1/chat/2026-03-03", json: ["text": "two"], headers: owner)
      _ = try await client.send(.put, "/api/v1/journal/2026-03-05", json: ["text": "three"], headers: owner)
      _ = try await client.send(.post, "/api/v1/chat/2026-03-05", json: ["text": "four"], headers: owner)

      let all = try await client.send(.get, "/api/v1/journal", headers: owner)
      #expect(all.status == .ok)
      all.expectSchema(arrayOf: "JournalDay")
      #expect(all.array.map { $0["day"] as? String } == ["2026-03-01", "2026-03-03", "2026-03-05"])
      #expect(all.array[1]["entry"] is NSNull)
      #expect(all.array[2]["entry"] as? String == "three")

      let some = try await client.send(.get, "/api/v1/journal?from=2026-03-02&to=2026-03-04", headers: owner)
      #expect(some.array.map { $0["day"] as? String } == ["2026-03-03"])

      let backwards = try await client.send(.get, "/api/v1/journal?from=2026-03-04&to=2026-03-02", headers: owner)
      #expect(backwards.status == .badRequest)
      #expect(backwards.detail == "The range from 2026-03-04 to 2026-03-02 ends before it starts.")
      let bad = try await client.send(.get, "/api/v1/journal?from=March", headers: owner)
      #expect(bad.status == .badRequest)
      #expect(bad.object["field"] as? String == "from")
    }
  }

  @Test func signedOutEveryJournalRouteIsRefused() async throws {
    try await TestServer().test { client in
      _ = try await client.setUpOwner()
      for (method, path) in [
        (HTTPRequest.Method.get, "/api/v1/journal"), (.get, "/api/v1/journal/2026-03-08"),
        (.put, "/api/v1/journal/2026-03-08"), (.delete, "/api/v1/journal/2026-03-08"),
        (.get, "/api/v1/chat/2026-03-08"), (.post, "/api/v1/chat/2026-03-08"),
      ] {
        let response = try await client.send(method, path, json: method == .put || method == .post ? ["text": "x"] : nil)
        #expect(response.status == .unauthorized, "\(method) \(path)")
      }
    }
  }

  @Test func anotherUserSeesTheirOwnEmptyJournalAndCannotChangeTheFirsts() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      _ = try await client.send(.put, "/api/v1/journal/2026-03-07", json: ["text": "mine"], headers: owner)
      _ = try await client.send(.post, "/api/v1/chat/2026-03-07", json: ["text": "mine too"], headers: owner)
      let bob = try await client.memberSession(owner: owner)

      #expect(try await client.send(.get, "/api/v1/journal", headers: bob).array.isEmpty)
      let day = try await client.send(.get, "/api/v1/journal/2026-03-07", headers: bob)
      #expect(day.text == #"{"chat":[],"day":"2026-03-07","entry":null}"#)
      #expect(try await client.send(.get, "/api/v1/chat/2026-03-07", headers: bob).array.isEmpty)
      #expect(try await client.send(.delete, "/api/v1/journal/2026-03-07", headers: bob).status == .noContent)
      _ = try await client.send(.put, "/api/v1/journal/2026-03-07", json: ["text": "bob's"], headers: bob)

      let ours = try await client.send(.get, "/api/v1/journal/2026-03-07", headers: owner)
      #expect(ours.object["entry"] as? String == "mine")
      #expect((ours.object["chat"] as? [Any])?.count == 1)
    }
  }

  @Test func anAPITokenWorksLikeTheSession() async throws {
    try await TestServer().test { client in
      let owner = try await client.setUpOwner()
      let token = try await client.bearer(owner)
      #expect(try await client.send(.put, "/api/v1/journal/2026-03-08", json: ["text": "via token"], headers: token).status == .ok)
      let read = try await client.send(.get, "/api/v1/journal/2026-03-08", headers: owner)
      #expect(read.object["entry"] as? String == "via token")
    }
  }
}
