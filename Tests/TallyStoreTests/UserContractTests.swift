import Foundation
import TallyCore
import TallyLocalization
import TallyStore
import Testing

@Suite struct UserContractTests {
  @Test(arguments: StoreFactory.all)
  func createdUsersReadBackByIdAndName(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await store.createUser(User(id: UUID(), name: "  ada  ", settings: berlin))
    #expect(ada.name == "ada")
    #expect(try await store.user(id: ada.id) == ada)
    #expect(try await store.user(named: "ada") == ada)
    #expect(try await store.user(named: " ada ") == ada)
    let bob = try await makeUser(store, "bob")
    let aaron = try await makeUser(store, "Aaron")
    #expect(try await store.users() == [aaron, ada, bob])
  }

  @Test(arguments: StoreFactory.all)
  func idsAndNamesAreUnique(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    await #expect(throws: StoreError.conflict("a user named 'ada' already exists")) {
      try await store.createUser(User(id: UUID(), name: "ada", settings: berlin))
    }
    await #expect(throws: StoreError.conflict("a user with id \(ada.id.storeText) already exists")) {
      try await store.createUser(User(id: ada.id, name: "other", settings: berlin))
    }
    // Names compare exactly: another spelling is another user.
    _ = try await makeUser(store, "Ada")
    #expect(try await store.users().count == 2)
  }

  @Test(arguments: StoreFactory.all)
  func unknownUsersAreNotFound(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let id = UUID()
    await #expect(throws: StoreError.notFound(.user(id))) { try await store.user(id: id) }
    await #expect(throws: StoreError.notFound(.userNamed("zed"))) { try await store.user(named: "zed") }
    await #expect(throws: StoreError.notFound(.user(id))) {
      try await store.updateSettings(berlin, for: id)
    }
    #expect(try await store.users().isEmpty)
  }

  @Test(arguments: StoreFactory.all)
  func settingsAreCheckedAndReplaced(_ factory: StoreFactory) async throws {
    let store = try await factory.make()
    let ada = try await makeUser(store)
    var settings = UserSettings(
      timeZone: "America/New_York", daySwitchHour: 6, firstWeekday: .saturday, locale: "fr_FR",
      showDatePickerGrid: false, showGridDates: true, language: .brazilianPortuguese)
    var updated = try await store.updateSettings(settings, for: ada.id)
    #expect(updated.settings == settings)
    #expect(try await store.user(id: ada.id).settings == settings)
    // Back to "as the browser asks".
    settings.language = nil
    #expect(try await store.updateSettings(settings, for: ada.id).settings.language == nil)
    #expect(try await store.user(id: ada.id).settings.language == nil)
    settings.language = .ukrainian
    updated = try await store.updateSettings(settings, for: ada.id)

    settings.timeZone = "Mars/Olympus"
    await #expect(throws: StoreError.self) { try await store.updateSettings(settings, for: ada.id) }
    #expect(try await store.user(id: ada.id) == updated)
  }

  @Test func errorsReadAsSentences() {
    let id = UUID(uuidString: "6F1C0000-0000-4000-8000-000000000001")!
    #expect(
      StoreError.notFound(.habit(id)).description
        == "There is no habit with id 6f1c0000-0000-4000-8000-000000000001.")
    #expect(
      StoreError.conflict("a user named 'ada' already exists").description
        == "A user named 'ada' already exists.")
    #expect(
      StoreError.invalid(ValidationError(field: "note", rule: "must be short")).description
        == "The note must be short.")
    let newer = StoreError.newerSchema(path: "/data/tally.sqlite", version: "v3", known: "v1")
    #expect(newer.description.contains("/data/tally.sqlite"))
    #expect(newer.description.contains("v3"))
    #expect(newer.description.contains("left untouched"))
  }
}
