import ArgumentParser
import Foundation
import TallyCore
import TallyStore

struct PricesSet: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "set", abstract: "Set what a provider costs a month in a country, replacing any earlier price.")

  @OptionGroup var global: GlobalOptions

  @Argument(help: ArgumentHelp("Two-letter country code.", valueName: "cc"))
  var country: String

  @Argument(help: ArgumentHelp("The provider's TMDB id (8 is Netflix).", valueName: "provider-id"))
  var providerID: Int

  @Argument(help: ArgumentHelp("The monthly amount, like 17.99.", valueName: "amount"))
  var amount: String

  @Argument(help: ArgumentHelp("ISO 4217 currency code, like USD.", valueName: "currency"))
  var currency: String

  func run(in context: CommandContext) async throws {
    guard let value = Decimal(string: amount, locale: Locale(identifier: "en_US_POSIX")),
      amount.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), value <= 1_000_000
    else {
      throw CommandFailure("The amount must be a number from 0 to 1000000 like 17.99, not '\(amount)'.", exitCode: CommandFailure.usage)
    }
    let price = try Price(country: country, providerID: providerID, amount: value, currency: currency)
    let session = try await SessionOpener(options: global, context: context).open()
    try await session.store.setPrice(price, for: session.user.id)
    session.output.line(
      "Provider \(price.providerID) costs \(MoneyFormat.string(price.amount, currency: price.currency, country: price.country)) in \(price.country).")
  }
}
