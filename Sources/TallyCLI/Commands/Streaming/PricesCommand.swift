import ArgumentParser

/// `tally prices …`: what each service costs you, for the calendar's day totals.
struct PricesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "prices",
    abstract: "List and edit your monthly prices per country and provider.",
    discussion: "A new user starts with typical prices for US, AU, GB, CA and DE; edit them to yours.",
    subcommands: [PricesList.self, PricesSet.self, PricesRemove.self],
    defaultSubcommand: PricesList.self)
}
