import ArgumentParser

/// `tally episodes …`: when a show's episodes air.
struct EpisodesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "episodes",
    abstract: "List, add and import episodes (an ICS feed such as Sonarr's).",
    subcommands: [EpisodesList.self, EpisodesAdd.self, EpisodesImport.self])
}
