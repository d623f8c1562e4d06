import Foundation
import Hummingbird
import TallyHTTP

/// The web app: its assets and sign-in pages, then every page behind ``PageMiddleware``.
public enum WebRoutes {
  public static func add(to router: Router<AppRequestContext>, services: AppServices) {
    AssetRoutes().addRoutes(to: router)
    AccountPages(services: services).addRoutes(to: router)
    let pages = router.group().add(middleware: PageMiddleware(services: services))
    ProviderSignInPages(services: services).addRoutes(to: router, pages: pages)
    TodayPages(services: services).addRoutes(to: pages)
    JournalPages(services: services).addRoutes(to: pages)
    HabitPages(services: services).addRoutes(to: pages)
    PausePages(services: services).addRoutes(to: pages)
    StatisticsPages(services: services).addRoutes(to: pages)
    CalendarPages(services: services).addRoutes(to: pages)
    LogoRoutes(services: services).addRoutes(to: pages)
    ShowPages(services: services).addRoutes(to: pages)
    SettingsPages(services: services).addRoutes(to: pages)
    ReminderSettingsPages(services: services).addRoutes(to: pages)
  }
}
