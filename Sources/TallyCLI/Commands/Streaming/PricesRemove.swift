import ArgumentParser
import TallyCore
import TallyStore

struct PricesRemove: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "remove", abstract: "Remove a price: the provider then shows '—' and is left out of day totals.")

  @OptionGroup var global: GlobalOptions

  @Argument(help: ArgumentHelp("Two-letter country code.", valueName: "cc"))
  var country: String

  @Argument(help: ArgumentHelp("The provider's TMDB id.", valueName: "provider-id"))
  var providerID: Int

  func run(in context: CommandContext) async throws {
    let code = try CountryCode.normalized(country, field: "country")
    let session = try await SessionOpener(options: global, context: context).open()
    try await session.store.removePrice(country: code, providerID: providerID, for: session.user.id)
    session.output.line("Provider \(providerID) has no price in \(code).")
  }
}
