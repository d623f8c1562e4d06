import Foundation
import TallyCore
import TallyStore

/// Reads Day One Classic's journal: a `NAME.dayone` folder whose `entries/` holds one XML
/// property list per entry (`UUID.doentry`: `Creation Date`, `Entry Text`, `Tags`, `Time
/// Zone`, …), or a zip of that folder. Each entry is a piece of journal text on its day.
///
/// - An entry that is not a readable property list is reported, naming its file, and left
///   out; the others are imported (one damaged file should not keep years of journal out).
///   A folder with no readable entry at all is refused.
/// - An entry without `Time Zone` (older Day One versions, and clones) is put on its day in
///   the importing user's time zone, with a warning naming it.
/// - Photos (`photos/UUID.jpg` beside `entries/`) are not carried, and reported.
public enum DayOneClassicReader {
  /// A folder holding `.doentry` files, directly or in `entries/`.
  public static func isJournalFolder(_ path: String) -> Bool {
    !entryFiles(path).isEmpty
  }

  static func entryFiles(_ path: String) -> [String] {
    let manager = FileManager.default
    for folder in [path + "/entries", path] {
      if let names = try? manager.contentsOfDirectory(atPath: folder) {
        let entries = names.filter { $0.hasSuffix(".doentry") }.sorted()
        if !entries.isEmpty { return entries.map { folder + "/" + $0 } }
      }
    }
    return []
  }

  public static func read(path: String, today: Day, timeZone: TimeZone = .gmt) throws(ImportError) -> ImportedHistory {
    var files: [(name: String, data: Data)] = []
    var photos = 0
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
      for file in entryFiles(path) {
        guard let data = FileManager.default.contents(atPath: file) else {
          throw ImportError(file, "the file cannot be read")
        }
        files.append((String(file.dropFirst(path.count + 1)), data))
      }
      photos = (try? FileManager.default.contentsOfDirectory(atPath: path + "/photos"))?.count ?? 0
    } else {
      var zip = try ZipFiles(path: path)
      for name in zip.names where name.hasSuffix(".doentry") && !name.contains("__MACOSX/") {
        files.append((name, try zip.contents(name)))
      }
      photos = zip.names.filter { $0.contains("photos/") && !$0.hasSuffix("/") }.count
    }
    guard !files.isEmpty else { throw ImportError(nil, "there are no .doentry files, so it is not a Day One Classic journal") }
    var journal: [ImportedJournalText] = []
    var broken: [String] = []
    var left = DayOneLeftOut()
    var days = InstantDays()
    for file in files {
      // An XML property list starts with its declaration or `<plist`, a binary one with
      // `bplist`: Foundation on Linux would read a bare `<dict>` that Apple's tools refuse.
      let start = String(decoding: file.data.prefix(200), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
      guard start.hasPrefix("<?xml") || start.hasPrefix("<!DOCTYPE plist") || start.hasPrefix("<plist") || start.hasPrefix("bplist"),
        let plist = try? PropertyListSerialization.propertyList(from: file.data, format: nil),
        let entry = plist as? [String: Any]
      else {
        broken.append(file.name)
        continue
      }
      guard let date = entry["Creation Date"] as? Date else {
        throw ImportError(file.name, "it has no Creation Date")
      }
      let zone = (entry["Time Zone"] as? String).flatMap(TimeZone.init(identifier:))
      if zone == nil { left.zoneless.append(file.name) }
      left.note(entry, place: ["Location", "Weather"], star: "Starred", at: file.name)
      let day = try days.day(of: date, in: zone ?? timeZone, file.name)
      guard let text = (entry["Entry Text"] as? String).flatMap(JournalMerge.piece) else {
        left.empty.append(file.name)
        continue
      }
      guard day <= today else {
        left.future.append(file.name)
        continue
      }
      journal.append(
        ImportedJournalText(day: day, text: DayOneText.withTags(text, entry["Tags"] as? [String] ?? []), source: file.name))
    }
    guard broken.count < files.count else {
      throw ImportError(
        broken.first, "no entry is a readable property list (\(LoopMapping.count(broken.count, "file")) tried), so nothing can be imported")
    }
    var warnings = left.warnings(today: today, zone: timeZone)
    if !broken.isEmpty {
      warnings.insert(
        ImportWarning(habit: nil, "entries that are not readable property lists are not carried: \(broken.joined(separator: "; "))"),
        at: 0)
    }
    if photos > 0 {
      warnings.append(ImportWarning(habit: nil, "\(LoopMapping.count(photos, "photo")) not carried (Tally's journal is text)"))
    }
    return ImportedHistory(format: .dayOneClassic, habits: [], journal: journal, warnings: warnings)
  }
}
