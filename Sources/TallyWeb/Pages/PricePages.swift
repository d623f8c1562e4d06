import Foundation
import Hummingbird
import TallyCore
import TallyHTTP
import TallyLocalization
import TallyStore

/// The price table the calendar's day totals use: one monthly price per service and country.
struct PricePages {
  let services: AppServices

  struct Row: Sendable {
    let country: String
    let providerId: Int
    let name: String
    let amount: String
    let currency: String
    let text: String
    let removeLabel: String
  }

  struct Model: Sendable {
    let rows: [Row]
    let providerChoices: [ProviderChoice]
    let picker = ProviderPicker(prefix: "price", required: true)
  }

  struct SetForm: Decodable {
    var country: String
    var provider: String
    var providerId: String?
    var providerName: String?
    var amount: String
    var currency: String
  }

  struct RemoveForm: Decodable {
    var country: String
    var providerId: String
  }

  func addRoutes(to group: RouterGroup<AppRequestContext>) {
    group.get("prices", use: page)
    group.post("prices", use: set)
    group.post("prices/remove", use: remove)
  }

  @Sendable func page(_ request: Request, context: AppRequestContext) async throws -> HTMLPage {
    let user = try context.requireUser()
    let t = PageLanguages.speech(for: request, user: context.user).translator
    let choices = ProviderChoice.all(shows: try await services.store.shows(for: user.id))
    let names = Dictionary(choices.map { ($0.value, $0.name) }, uniquingKeysWith: { first, _ in first })
    let rows = try await services.store.priceTable(for: user.id).prices.map { price in
      let name = names[String(price.providerID)] ?? t.text("prices.service", ["id": String(price.providerID)])
      return Row(
        country: price.country, providerId: price.providerID, name: name,
        amount: "\(price.amount)", currency: price.currency,
        text: MoneyFormat.string(price.amount, currency: price.currency, country: price.country),
        removeLabel: t.text("prices.removeLabel", ["name": name, "country": price.country]))
    }
    return Templates.shared.page(
      "prices", title: t.text("prices.pageTitle"), section: .calendar, user: user, request: request,
      content: Model(rows: rows, providerChoices: choices), speech: PageLanguages.speech(for: request, user: context.user))
  }

  /// Sets (adds or replaces) one price.
  @Sendable func set(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let form = try await request.decodeForm(SetForm.self, limit: services.configuration.maxBodySize)
    let country = try ShowPages.country(form.country)
    let choices = ProviderChoice.all(shows: try await services.store.shows(for: user.id))
    guard
      let provider = try ShowPages.provider(
        choice: form.provider, id: form.providerId, name: form.providerName, among: choices)
    else { throw Problem(.unprocessableContent, "Pick the service the price is for.", field: "provider") }
    let text = form.amount.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".")
    guard let amount = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")),
      text.allSatisfy({ $0.isNumber || $0 == "." }), amount <= StreamingRules.largestAmount
    else {
      throw Problem(
        .unprocessableContent, "The amount must be a monthly price like 17.99, not '\(form.amount)'.", field: "amount")
    }
    let price = try ShowPages.valid {
      try Price(country: country, providerID: provider.id, amount: amount, currency: form.currency.uppercased())
    }
    try await services.store.setPrice(price, for: user.id)
    return .seeOther("/prices")
  }

  @Sendable func remove(_ request: Request, context: AppRequestContext) async throws -> Response {
    let user = try context.requireUser()
    let form = try await request.decodeForm(RemoveForm.self, limit: services.configuration.maxBodySize)
    guard let id = Int(form.providerId), id > 0 else {
      throw Problem(.unprocessableContent, "The provider id must be a positive number, not '\(form.providerId)'.", field: "providerId")
    }
    try await services.store.removePrice(country: try ShowPages.country(form.country), providerID: id, for: user.id)
    return .seeOther("/prices")
  }
}
