import Foundation
import TallyCore
import TallyStore

/// Reads Day One's JSON export (`{"metadata": {"version": "1.x"}, "entries": [...]}`), alone
/// or in the export's zip with its media folders, into the journal. An entry's day is its
/// `creationDate` in its own `timeZone`; its text is `text` (Markdown, with Day One's
/// backslash escapes removed), or the plain text of `richText` when there is no `text`; its
/// tags follow on a line of their own. Photos, videos, audio and PDFs, locations, weather and
/// stars are not carried: each entry that has them is named in a warning.
public enum DayOneReader {
  public static func read(path: String, data: Data, today: Day, timeZone: TimeZone = .gmt) throws(ImportError)
    -> ImportedHistory
  {
    var files: [(name: String, data: Data)] = []
    if data.starts(with: [0x50, 0x4B]) {
      var zip = try ZipFiles(path: path)
      for name in zip.names where name.lowercased().hasSuffix(".json") && !name.hasPrefix("__MACOSX/") {
        files.append((name, try zip.contents(name)))
      }
      guard !files.isEmpty else { throw ImportError(nil, "the zip holds no .json file, so it is not a Day One export") }
    } else {
      files = [("the Day One JSON", data)]
    }
    var journal: [ImportedJournalText] = []
    var notCarried = DayOneLeftOut()
    var warnings: [ImportWarning] = []
    for file in files {
      guard let object = try? JSONSerialization.jsonObject(with: file.data), let root = object as? [String: Any] else {
        throw ImportError(file.name, "it is not JSON (is it cut short?)")
      }
      guard let entries = root["entries"] as? [Any] else {
        throw ImportError(file.name, "it has no list \"entries\", so it is not a Day One export")
      }
      if let version = (root["metadata"] as? [String: Any])?["version"] as? String, !version.hasPrefix("1.") {
        warnings.append(ImportWarning(habit: nil, "\(file.name) says it is version \(version); Tally knows 1.0 to 1.2"))
      }
      let parser = ISOInstantParser()
      var days = InstantDays()
      for (number, item) in entries.enumerated() {
        guard let entry = item as? [String: Any] else {
          throw ImportError("entry \(number + 1) of \(file.name)", "it is not an object")
        }
        let uuid = entry["uuid"] as? String
        let location = "entry \(number + 1)\(uuid.map { " (\($0))" } ?? "") of \(file.name)"
        guard let created = entry["creationDate"] as? String, let date = parser.instant(created) else {
          throw ImportError(location, "its creationDate \(entry["creationDate"].map { "'\($0)'" } ?? "is missing and") is not a date and time")
        }
        let zone = (entry["timeZone"] as? String).flatMap(TimeZone.init(identifier:))
        if zone == nil { notCarried.zoneless.append(location) }
        let day = try days.day(of: date, in: zone ?? timeZone, location)
        let media = ["photos", "videos", "audios", "pdfAttachments"].reduce(0) { $0 + ((entry[$1] as? [Any])?.count ?? 0) }
        if media > 0 { notCarried.media.append("\(location): \(LoopMapping.count(media, "attachment"))") }
        notCarried.note(entry, place: ["location", "weather"], star: "starred", at: location)
        let text = DayOneText.plain(entry["text"] as? String) ?? DayOneText.richText(entry["richText"])
        guard let body = text.flatMap(JournalMerge.piece) else {
          notCarried.empty.append(location)
          continue
        }
        guard day <= today else {
          notCarried.future.append(location)
          continue
        }
        journal.append(
          ImportedJournalText(day: day, text: DayOneText.withTags(body, entry["tags"] as? [String] ?? []), source: location))
      }
    }
    return ImportedHistory(
      format: .dayOne, habits: [], journal: journal, warnings: warnings + notCarried.warnings(today: today, zone: timeZone))
  }
}

/// What Day One entries held that the journal does not get, said once for the file.
struct DayOneLeftOut {
  var media: [String] = []
  var empty: [String] = []
  var future: [String] = []
  var zoneless: [String] = []
  /// Entries with a location or weather, and starred ones: the journal has no place for either.
  var places: [String] = []
  var starred: [String] = []

  /// Notes what of `entry` is not carried: `place` keys (location, weather), `star` set to true.
  mutating func note(_ entry: [String: Any], place: [String], star: String, at location: String) {
    if place.contains(where: { entry[$0] != nil }) { places.append(location) }
    if entry[star] as? Bool == true { starred.append(location) }
  }

  func warnings(today: Day, zone: TimeZone) -> [ImportWarning] {
    var result: [ImportWarning] = []
    if !media.isEmpty {
      result.append(
        ImportWarning(habit: nil, "photos and other attachments are not carried (Tally's journal is text): \(media.joined(separator: "; "))"))
    }
    if !empty.isEmpty {
      result.append(ImportWarning(habit: nil, "entries without text are not carried: \(empty.joined(separator: "; "))"))
    }
    if !future.isEmpty {
      result.append(ImportWarning(habit: nil, "entries after today (\(today)) are left out: \(future.joined(separator: "; "))"))
    }
    if !places.isEmpty {
      result.append(ImportWarning(habit: nil, "locations and weather are not carried: \(places.joined(separator: "; "))"))
    }
    if !starred.isEmpty {
      result.append(ImportWarning(habit: nil, "stars are not carried (Tally's journal has none): \(starred.joined(separator: "; "))"))
    }
    if !zoneless.isEmpty {
      result.append(
        ImportWarning(
          habit: nil, "entries without a time zone are put on their day in \(zone.identifier): \(zoneless.joined(separator: "; "))"))
    }
    return result
  }
}

/// Day One's text as Tally's journal keeps it.
enum DayOneText {
  /// Markdown as a person reads it: Day One's backslash escapes (`\.`, `\/`, `\-`) removed
  /// and its links to attached media (`![](dayone-moment://…)`) taken out.
  static func plain(_ text: String?) -> String? {
    guard var text else { return nil }
    while let range = text.range(of: #"!\[[^\]]*\]\(dayone-moment:/*[^)]*\)"#, options: .regularExpression) {
      text.removeSubrange(range)
    }
    var result = ""
    var escaped = false
    for character in text {
      if escaped {
        if !(character.isPunctuation || character.isSymbol) { result.append("\\") }
        result.append(character)
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else {
        result.append(character)
      }
    }
    if escaped { result.append("\\") }
    return result
  }

  /// The text of `richText` (a JSON string of `{"contents": [{"text": …}, …]}`) without its
  /// formatting.
  static func richText(_ value: Any?) -> String? {
    guard let json = value as? String, let data = json.data(using: .utf8),
      let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
      let contents = object["contents"] as? [[String: Any]]
    else { return nil }
    return contents.compactMap { $0["text"] as? String }.joined()
  }

  /// Tags on a line after the text: `Tags: work, play`.
  static func withTags(_ text: String, _ tags: [String]) -> String {
    let kept = tags.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    return kept.isEmpty ? text : text + "\n\nTags: " + kept.joined(separator: ", ")
  }
}
