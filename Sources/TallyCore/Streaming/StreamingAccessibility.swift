/// VoiceOver labels for the streaming calendar (SPEC 6), built from the user's locale's
/// weekday and month names.
///
/// The sentence shape ("… on Monday 1 September", the word "and") is English; only the names
/// are localised.
public enum StreamingAccessibility {
  /// "Netflix", "Netflix and Max", "Netflix, Max and Hulu".
  public static func list(_ names: [String]) -> String {
    guard let last = names.last, names.count > 1 else { return names.first ?? "" }
    return names.dropLast().joined(separator: ", ") + " and " + last
  }

  /// "Netflix, Max and Hulu on Monday 1 September"; a show with no provider is named by its
  /// title ("Netflix and The Bake Off on …"); just the date for a day with nothing on.
  public static func cellLabel(
    day: Day, providers: [Provider], showsWithoutProvider: [String] = [], calendar: DayCalendar
  ) -> String {
    let date = calendar.spokenName(of: day)
    let names = providers.map(\.name) + showsWithoutProvider
    return names.isEmpty ? date : "\(list(names)) on \(date)"
  }

  /// "Netflix, $17.99, airing today". An unpriced provider says "no price set"; a later day
  /// says "airing Tuesday 2 September" and an earlier one "aired Sunday 31 August".
  public static func detailRowLabel(
    provider: Provider, formattedPrice: String?, day: Day, today: Day, calendar: DayCalendar
  ) -> String {
    let when =
      day == today
      ? "airing today"
      : (day > today ? "airing " : "aired ") + calendar.spokenName(of: day)
    return "\(provider.name), \(formattedPrice ?? "no price set"), \(when)"
  }
}
