import TallySQLite
import TallyStore
import Testing

@Suite struct DatabaseLocationTests {
  @Test func tallyDBWins() throws {
    let path = try DatabaseLocation.defaultPath(environment: [
      "TALLY_DB": "/srv/tally.db", "XDG_DATA_HOME": "/xdg", "HOME": "/home/ada",
    ])
    #expect(path == "/srv/tally.db")
  }

  @Test func thenXDGDataHome() throws {
    #expect(
      try DatabaseLocation.defaultPath(environment: ["XDG_DATA_HOME": "/xdg/", "HOME": "/home/ada"])
        == "/xdg/tally/tally.sqlite")
    #expect(
      try DatabaseLocation.defaultPath(environment: ["TALLY_DB": "", "XDG_DATA_HOME": "/xdg"])
        == "/xdg/tally/tally.sqlite")
  }

  @Test func thenHome() throws {
    #expect(
      try DatabaseLocation.defaultPath(environment: ["HOME": "/home/ada"])
        == "/home/ada/.local/share/tally/tally.sqlite")
    // Empty or relative XDG_DATA_HOME is ignored, as the XDG spec says.
    #expect(
      try DatabaseLocation.defaultPath(environment: ["XDG_DATA_HOME": "", "HOME": "/home/ada"])
        == "/home/ada/.local/share/tally/tally.sqlite")
    #expect(
      try DatabaseLocation.defaultPath(environment: ["XDG_DATA_HOME": "data", "HOME": "/home/ada"])
        == "/home/ada/.local/share/tally/tally.sqlite")
  }

  @Test func nothingToGoOnIsASentence() {
    #expect(throws: StoreError.noDatabaseLocation) {
      try DatabaseLocation.defaultPath(environment: [:])
    }
    #expect(StoreError.noDatabaseLocation.description.contains("TALLY_DB"))
  }
}
