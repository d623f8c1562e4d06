import ArgumentParser
import TallyCore
import TallyStore

struct PricesList: TallyCommand {
  static let configuration = CommandConfiguration(commandName: "list", abstract: "Your prices, by country and provider id.")

  @OptionGroup var global: GlobalOptions

  @Option(help: ArgumentHelp("Only this country.", valueName: "cc"))
  var country: String?

  @Flag(help: "Print JSON only: an array of prices.")
  var json = false

  func run(in context: CommandContext) async throws {
    let session = try await SessionOpener(options: global, context: context).open()
    let only = try country.map { try CountryCode.normalized($0, field: "country") }
    let prices = try await session.store.priceTable(for: session.user.id).prices.filter { only == nil || $0.country == only }
    if json {
      try session.output.json(prices)
      return
    }
    guard !prices.isEmpty else {
      session.output.line("No prices: set one with 'tally prices set US 8 17.99 USD'.")
      return
    }
    var table = TextTable([.left, .right, .right])
    table.add(["COUNTRY", "PROVIDER", "PRICE"])
    for price in prices {
      table.add([price.country, String(price.providerID), MoneyFormat.string(price.amount, currency: price.currency, country: price.country)])
    }
    table.lines.forEach(session.output.line)
  }
}
