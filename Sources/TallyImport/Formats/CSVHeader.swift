import Foundation

/// A CSV file's header, for readers that find columns by name.
struct CSVHeader {
  let file: String
  let columns: [String]

  /// Refuses an empty file or a header without `required`, naming the file's first line.
  init(_ records: [CSVReader.Record], file: String, required: [String], app: String) throws(ImportError) {
    guard let first = records.first?.fields else {
      throw ImportError(file, "the file is empty; it should start with \(app)'s header line")
    }
    let columns = first.map { $0.trimmingCharacters(in: .whitespaces) }
    let missing = required.filter { !columns.contains($0) }
    guard missing.isEmpty else {
      throw ImportError(
        "line 1 of \(file)",
        "the header lacks \(missing.joined(separator: ", ")), so it is not an export of \(app); it is '\(first.joined(separator: ","))'")
    }
    self.file = file
    self.columns = columns
  }

  /// The field of the column `name` in `record`, "" when the file has no such column.
  func field(_ name: String, _ record: CSVReader.Record) -> String {
    columns.firstIndex(of: name).map { record.fields[$0] } ?? ""
  }

  func has(_ name: String) -> Bool { columns.contains(name) }
}
