import Foundation
import TallyCore
import TallyImport
import Testing
import ZIPFoundation

/// Issue 17, point 3: a zip may not cost more than ``ArchiveLimits`` allow, whatever it claims.
@Suite struct ArchiveLimitTests {
  let today = day("2024-03-10")

  /// A zip under 1 MiB that inflates past the limit (64 MiB and one more).
  func bomb() throws -> String {
    let path = temporaryFile("bomb.zip")
    let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
    let size = ArchiveLimits.maxInflatedBytes + (1 << 20)
    let chunk = Data(loopHabitsHeader.utf8) + Data(repeating: UInt8(ascii: "0"), count: 1 << 20)
    try archive.addEntry(with: "Habits.csv", type: .file, uncompressedSize: Int64(size), compressionMethod: .deflate) {
      position, count in
      position == 0 ? chunk.prefix(count) : Data(repeating: UInt8(ascii: "0"), count: count)
    }
    let compressed = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
    #expect(compressed < 1 << 20)
    return path
  }

  /// Refused from the sizes the zip states, before inflating anything.
  @Test func aZipBombIsRefusedAtTheLimit() throws {
    let path = try bomb()
    let started = Date()
    #expect(throws: ImportError(nil, "the zip unpacks to more than 64 MiB, more than any export Tally reads; it was not read further")) {
      try LoopCSVReader.read(path: path, today: today)
    }
    #expect(Date().timeIntervalSince(started) < 5)
  }

  /// A zip that claims 1,000 bytes is stopped by counting what it inflates.
  @Test func aZipLyingAboutItsSizeIsStoppedAtTheLimit() throws {
    var data = try Data(contentsOf: URL(fileURLWithPath: try bomb()))
    for (signature, offset) in [([0x50, 0x4B, 0x03, 0x04] as [UInt8], 22), ([0x50, 0x4B, 0x01, 0x02], 24)] {
      let header = try #require(data.firstRange(of: Data(signature))).lowerBound
      data.replaceSubrange((header + offset)..<(header + offset + 4), with: [0xE8, 0x03, 0, 0])
    }
    let path = temporaryFile("liar.zip")
    try data.write(to: URL(fileURLWithPath: path))
    #expect(throws: ImportError(nil, "the zip unpacks to more than 64 MiB, more than any export Tally reads; it was not read further")) {
      try LoopCSVReader.read(path: path, today: today)
    }
  }

  @Test func aZipOfTooManyEntriesIsRefused() throws {
    let path = temporaryFile("many.zip")
    try emptyEntriesZip(count: ArchiveLimits.maxEntries + 1).write(to: URL(fileURLWithPath: path))
    #expect(throws: ImportError(nil, "the zip holds more than 10000 entries, more than any export Tally reads")) {
      try LoopCSVReader.read(path: path, today: today)
    }
  }

  /// A stored (not compressed) zip of `count` empty files, written by hand: adding ten
  /// thousand entries through ZIPFoundation rewrites its directory each time.
  func emptyEntriesZip(count: Int) -> Data {
    var local = Data()
    var central = Data()
    func le<T: FixedWidthInteger>(_ value: T, into data: inout Data) {
      withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }
    for index in 0..<count {
      let name = Data("\(index).csv".utf8)
      let offset = UInt32(local.count)
      le(UInt32(0x0403_4b50), into: &local)
      for value: UInt16 in [20, 0, 0, 0, 0] { le(value, into: &local) }
      for _ in 0..<3 { le(UInt32(0), into: &local) }
      le(UInt16(name.count), into: &local)
      le(UInt16(0), into: &local)
      local += name
      le(UInt32(0x0201_4b50), into: &central)
      for value: UInt16 in [20, 20, 0, 0, 0, 0] { le(value, into: &central) }
      for _ in 0..<3 { le(UInt32(0), into: &central) }
      for value: UInt16 in [UInt16(name.count), 0, 0, 0, 0] { le(value, into: &central) }
      le(UInt32(0), into: &central)
      le(offset, into: &central)
      central += name
    }
    var end = Data()
    le(UInt32(0x0605_4b50), into: &end)
    for value: UInt16 in [0, 0, UInt16(count), UInt16(count)] { le(value, into: &end) }
    le(UInt32(central.count), into: &end)
    le(UInt32(local.count), into: &end)
    le(UInt16(0), into: &end)
    return local + central + end
  }
}
