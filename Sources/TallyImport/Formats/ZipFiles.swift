import Foundation
import ZIPFoundation

/// The files of a zip, read within ``ArchiveLimits`` whatever the zip says about itself: every
/// zip an import reads (Loop's CSV export, Day One's export) goes through here.
struct ZipFiles {
  let archive: Archive
  /// The files (not folders) by their path in the zip.
  let entries: [String: Entry]
  private(set) var inflated = 0

  /// Refuses a file that is not a zip, or one with more entries than the limit.
  init(path: String) throws(ImportError) {
    let archive: Archive
    do {
      archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
    } catch {
      throw ImportError(nil, "the file is not a zip archive (or it is cut short)")
    }
    var files: [String: Entry] = [:]
    var count = 0
    for entry in archive {
      count += 1
      guard count <= ArchiveLimits.maxEntries else {
        throw ImportError(nil, "the zip holds more than \(ArchiveLimits.maxEntries) entries, more than any export Tally reads")
      }
      if entry.type == .file { files[entry.path] = entry }
    }
    self.archive = archive
    entries = files
  }

  var names: [String] { entries.keys.sorted() }

  /// One file, inflated a chunk at a time; past the limit (counted over every file read,
  /// whatever sizes the zip claims) it stops at once: a zip bomb costs at most the limit.
  mutating func contents(_ name: String) throws(ImportError) -> Data {
    guard let entry = entries[name] else { throw ImportError(nil, "the zip has no file \(name)") }
    guard inflated + Int(clamping: entry.uncompressedSize) <= ArchiveLimits.maxInflatedBytes else {
      throw ArchiveLimits.tooLarge
    }
    var data = Data()
    var inflated = self.inflated
    defer { self.inflated = inflated }
    do {
      _ = try archive.extract(entry) { chunk in
        inflated += chunk.count
        guard inflated <= ArchiveLimits.maxInflatedBytes else { throw ArchiveLimits.tooLarge }
        data.append(chunk)
      }
    } catch let error as ImportError {
      throw error
    } catch {
      throw ImportError(name, "it cannot be unpacked; the zip is damaged or cut short")
    }
    return data
  }
}

/// What reading a zip may cost, whatever the zip says about itself (issue 17: a 1 MiB zip
/// inflating to 1 GiB took the server to 4.4 GiB).
public enum ArchiveLimits {
  /// Entries in the archive: a Loop export has two per habit and three more.
  public static let maxEntries = 10_000
  /// Bytes inflated from all the files read, together; a Loop export of 100 habits over ten
  /// years is about 10 MB.
  public static let maxInflatedBytes = 64 << 20

  static let tooLarge = ImportError(
    nil, "the zip unpacks to more than \(maxInflatedBytes >> 20) MiB, more than any export Tally reads; it was not read further")
}
