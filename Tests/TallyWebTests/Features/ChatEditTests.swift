import Foundation
import HTTPTypes
import HummingbirdTesting
import TallyCore
import TallyHTTP
import TallyServer
import TallyServerTesting
import TallyStore
import Testing

/// Chat messages are edited and deleted through the API and the Today page; a message's
/// time is the instant it was written, shown with its own day when filed under another.
@Suite struct ChatEditTests {
  @Test func theAPIEditsAndDeletesOnlyTheUsersOwnMessages() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let sent = try await client.send(.post, "/api/v1/chat/2026-03-07", json: ["text": "Helo"], headers: ada)
      let id = try #require(sent.object["id"] as? String)
      let edited = try await client.send(.patch, "/api/v1/chat/messages/\(id)", json: ["text": "Hello"], headers: ada)
      #expect(edited.status == .ok)
      #expect(edited.object["text"] as? String == "Hello")
      #expect(edited.object["sentAt"] as? String == sent.object["sentAt"] as? String, "the written instant stays")
      #expect(edited.object["day"] as? String == "2026-03-07")

      let blank = try await client.send(.patch, "/api/v1/chat/messages/\(id)", json: ["text": "  "], headers: ada)
      #expect(blank.status == .unprocessableContent)
      #expect(blank.field == "text")
      let extra = try await client.send(.patch, "/api/v1/chat/messages/\(id)", json: ["text": "x", "day": "2026-03-01"], headers: ada)
      #expect(extra.status == .badRequest || extra.status == .unprocessableContent)

      let bob = try await client.addMember("bob", owner: ada)
      let theirs = try await client.send(.patch, "/api/v1/chat/messages/\(id)", json: ["text": "mine"], headers: bob)
      #expect(theirs.status == .notFound)
      #expect(try await client.send(.delete, "/api/v1/chat/messages/\(id)", headers: bob).status == .notFound)
      let chat = try await client.send(.get, "/api/v1/chat/2026-03-07", headers: ada)
      #expect(chat.array.map { $0["text"] as? String } == ["Hello"])

      #expect(try await client.send(.delete, "/api/v1/chat/messages/\(id)", headers: ada).status == .noContent)
      #expect(try await client.send(.get, "/api/v1/chat/2026-03-07", headers: ada).array.isEmpty)
      #expect(try await client.send(.delete, "/api/v1/chat/messages/\(id)", headers: ada).status == .notFound)
      #expect(try await client.send(.delete, "/api/v1/chat/messages/nonsense", headers: ada).status == .notFound)
    }
  }

  @Test func thePageShowsWhenABackDatedMessageWasWrittenAndEditsAndDeletesIt() async throws {
    let server = try TestServer()
    try await server.test { client in
      let ada = try await client.setUpOwner()
      let user = try await client.userID(ada)
      _ = try await client.post("/today/chat", form: [("day", "2026-03-07"), ("text", "Back-dated")], headers: ada)
      _ = try await client.post("/today/chat", form: [("day", "2026-03-08"), ("text", "Same day")], headers: ada)
      let yesterday = try await client.page("/today?day=2026-03-07", headers: ada)
      // An en_US account's clock has 12 hours (ICU puts a narrow no-break space before PM).
      #expect(yesterday.contains("written Sunday 8 March, 12:00\u{202F}PM</time>"), "the instant it was written, with its own day")
      var today = try await client.page("/today", headers: ada)
      #expect(today.contains(">12:00\u{202F}PM</time>"), "written on its own day: the time alone")
      try await client.patchSettings(["locale": "en_GB"], headers: ada)
      today = try await client.page("/today", headers: ada)
      #expect(today.contains(">12:00</time>"), "an en_GB account's clock has 24 hours")
      #expect(today.contains(#"data-clock-locale="en-GB""#), "and the scripts are told so")
      #expect(!today.contains("written "))

      let id = try #require(try await server.store.chatMessages(on: Day("2026-03-07")!, for: user).first?.id.storeText)
      #expect(yesterday.contains("action=\"/today/chat/\(id)\""))
      #expect(yesterday.contains("<label for=\"edit-text-\(id)\">"))
      let edited = try await client.post("/today/chat/\(id)", form: [("day", "2026-03-07"), ("text", "Back-dated, fixed")], headers: ada)
      #expect(edited.status == .seeOther)
      #expect(edited.location == "/today?day=2026-03-07#message-\(id)")
      let emptied = try await client.post("/today/chat/\(id)", form: [("day", "2026-03-07"), ("text", " ")], headers: ada)
      #expect(emptied.status == .unprocessableContent)
      #expect(emptied.text.contains("delete it instead"))
      #expect(try await server.store.chatMessages(on: Day("2026-03-07")!, for: user).map(\.text) == ["Back-dated, fixed"])

      let bob = try await client.addMember("bob", owner: ada)
      let foreign = try await client.post("/today/chat/\(id)/delete", form: [("day", "2026-03-07")], headers: bob)
      #expect(foreign.status == .notFound)
      let deleted = try await client.post("/today/chat/\(id)/delete", form: [("day", "2026-03-07")], headers: ada)
      #expect(deleted.location == "/today?day=2026-03-07#chat")
      #expect(try await server.store.chatMessages(on: Day("2026-03-07")!, for: user).isEmpty)
    }
  }

  @Test func journalAndChatFieldsKeepDraftsPerAccountAndDay() async throws {
    try await TestServer().test { client in
      let ada = try await client.setUpOwner()
      let user = try await client.userID(ada)
      let page = try await client.page("/today?day=2026-03-07", headers: ada)
      #expect(page.contains("data-owner=\"\(user.storeText)\""))
      #expect(page.contains("data-draft=\"journal-2026-03-07\""))
      #expect(page.contains("data-draft=\"chat-2026-03-07\""))
      #expect(page.contains("/assets/features.js?v="))
    }
  }
}
