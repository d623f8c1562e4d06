import Foundation
import TallyAccounts
import TallyCore
import TallyStore
import Testing

@Suite struct UserCommandTests {
  @Test func userAddMakesAnAccountThatCanSignIn() async throws {
    var tally = Harness()
    tally.input = ["correct horse"]
    let output = await tally.ok("user", "add", "ann", "--owner", "--json")
    let row = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    #expect(row["name"] as? String == "ann")
    #expect(row["role"] as? String == "owner")

    let store = try tally.store()
    let accounts = AccountService(store: store)
    let signedIn = try await accounts.signIn(name: "ann", password: "correct horse", at: Date())
    #expect(signedIn.user.name == "ann")
    #expect(try await store.ownerID() == signedIn.user.id)
  }

  @Test func theListSaysWhoCanSignIn() async throws {
    var tally = Harness()
    await tally.ok("habit", "list")  // makes the local user 'ada', who has no password
    tally.input = ["battery staple"]
    await tally.ok("user", "add", "bob")
    let rows = try #require(try await tally.run("user", "list", "--json").json() as? [[String: Any]])
    #expect(rows.map { $0["name"] as? String } == ["ada", "bob"])
    #expect(rows.map { $0["role"] as? String } == [nil, "member"])
    let text = await tally.ok("user", "list")
    #expect(text.contains("ada  no password"))
  }

  @Test func passwordGivesACommandLineUserASignIn() async throws {
    var tally = Harness()
    await tally.ok("habit", "list")
    tally.input = ["at last a password"]
    await tally.ok("user", "password", "ada")
    let store = try tally.store()
    let signedIn = try await AccountService(store: store).signIn(name: "ada", password: "at last a password", at: Date())
    #expect(signedIn.user.name == "ada")
  }

  @Test func aMissingOrShortPasswordChangesNothing() async throws {
    var tally = Harness()
    await tally.ok("habit", "list")
    let before = try await tally.snapshot()

    let none = await tally.run("user", "add", "bob")
    #expect(none.status == 64)
    #expect(none.stderr.contains("No password on standard input"))

    tally.input = ["short"]
    let short = await tally.run("user", "add", "bob")
    #expect(short.status == 1)
    #expect(short.stderr.contains("password must be at least 8 characters long"))

    tally.input = ["long enough"]
    let taken = await tally.run("user", "add", "ada")
    #expect(taken.status == 1)
    #expect(taken.stderr.contains("A user named 'ada' already exists."))

    tally.input = ["long enough"]
    await tally.ok("user", "add", "owner1", "--owner")
    tally.input = ["long enough"]
    let second = await tally.run("user", "add", "owner2", "--owner")
    #expect(second.stderr.contains("already has an owner"))
    #expect(try await tally.store().users().map(\.name) == ["ada", "owner1"])
    #expect(try await tally.snapshot().count == before.count + 2)
  }
}
