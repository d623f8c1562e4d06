import Foundation

/// An episode read from a calendar feed, before it belongs to a stored show.
public struct FeedEpisode: Hashable, Sendable {
  public let showTitle: String
  public let season: Int
  public let number: Int
  public let title: String
  public let airDay: Day

  public init(showTitle: String, season: Int, number: Int, title: String, airDay: Day) {
    self.showTitle = showTitle
    self.season = season
    self.number = number
    self.title = title
    self.airDay = airDay
  }
}

/// Turns the events of a calendar feed such as Sonarr's into episodes.
///
/// A summary names its episode as `Show Title - 1x02 - Episode Title` (Sonarr) or
/// `Show Title - S01E02 - Episode Title`; the episode title may be missing. A show title may
/// itself hold ` - `: the last part shaped like an episode number splits it.
public enum EpisodeFeed {
  public struct Result: Sendable {
    public var episodes: [FeedEpisode]
    /// The summaries that name no episode, which the import leaves out and reports.
    public var skipped: [String]

    public init(episodes: [FeedEpisode], skipped: [String]) {
      self.episodes = episodes
      self.skipped = skipped
    }
  }

  /// Timed events air on their date in `timeZone` (the user's); all-day events on their date.
  /// When a feed lists one episode twice, the later event wins.
  public static func episodes(from events: [ICSEvent], timeZone: TimeZone) -> Result {
    var result = Result(episodes: [], skipped: [])
    var indexByKey: [String: Int] = [:]
    for event in events {
      guard let parsed = summary(event.summary) else {
        result.skipped.append(event.summary)
        continue
      }
      let episode = FeedEpisode(
        showTitle: parsed.show, season: parsed.season, number: parsed.number,
        title: parsed.title ?? "Episode \(parsed.number)", airDay: event.day(in: timeZone))
      let key = "\(NameKey.comparisonKey(parsed.show))|\(parsed.season)|\(parsed.number)"
      if let index = indexByKey[key] {
        result.episodes[index] = episode
      } else {
        indexByKey[key] = result.episodes.count
        result.episodes.append(episode)
      }
    }
    return result
  }

  /// `nil` when the summary names no episode.
  public static func summary(_ text: String) -> (show: String, season: Int, number: Int, title: String?)? {
    let parts = text.components(separatedBy: " - ")
    guard parts.count >= 2 else { return nil }
    for index in stride(from: parts.count - 1, through: 1, by: -1) {
      guard let (season, number) = episodeNumber(parts[index].trimmingCharacters(in: .whitespaces)) else {
        continue
      }
      let show = parts[..<index].joined(separator: " - ").trimmingCharacters(in: .whitespacesAndNewlines)
      let title = parts[(index + 1)...].joined(separator: " - ").trimmingCharacters(in: .whitespacesAndNewlines)
      guard !show.isEmpty else { return nil }
      return (show, season, number, title.isEmpty ? nil : title)
    }
    return nil
  }

  /// `1x02` or `S01E02` (any case).
  private static func episodeNumber(_ text: String) -> (Int, Int)? {
    let upper = text.uppercased()
    let pair: [Substring]
    if upper.hasPrefix("S"), upper.contains("E") {
      pair = upper.dropFirst().split(separator: "E", omittingEmptySubsequences: false)
    } else {
      pair = upper.split(separator: "X", omittingEmptySubsequences: false)
    }
    guard pair.count == 2, pair.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
      let season = Int(pair[0]), let number = Int(pair[1]), season >= 0, number >= 0
    else { return nil }
    return (season, number)
  }
}
