import Foundation

/// RFC 4180 records: fields split by commas; a quoted field may hold commas, doubled quotes
/// and line breaks; records end with CRLF, LF or CR. UTF-8 only, a leading BOM ignored.
/// Every row has the header's number of fields.
public enum CSVReader {
  public struct Record: Equatable, Sendable {
    /// The line the record starts on, from 1.
    public var line: Int
    public var fields: [String]
  }

  /// `file` names the file in errors ("Habits.csv").
  public static func records(_ data: Data, file: String) throws(ImportError) -> [Record] {
    var bytes = [UInt8](data)
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
    guard isUTF8(bytes) else { throw ImportError(file, "the file is not UTF-8 text") }
    var records: [Record] = []
    var fields: [String] = []
    var field: [UInt8] = []
    var line = 1
    var recordLine = 1
    var quoted = false
    var wasQuoted = false
    var index = 0
    let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), lf = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")
    func endField() {
      fields.append(String(decoding: field, as: UTF8.self))
      field.removeAll(keepingCapacity: true)
      wasQuoted = false
    }
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      if quoted {
        if byte == quote {
          if index < bytes.count, bytes[index] == quote {
            field.append(quote)
            index += 1
          } else {
            quoted = false
          }
        } else {
          if byte == lf { line += 1 }
          field.append(byte)
        }
        continue
      }
      switch byte {
      case quote where field.isEmpty && !wasQuoted:
        quoted = true
        wasQuoted = true
      case quote:
        throw ImportError(
          "line \(line) of \(file)", "a quote inside a field that does not start with one; quote the whole field and double the quote")
      case comma:
        endField()
      case lf, cr:
        if byte == cr, index < bytes.count, bytes[index] == lf { index += 1 }
        endField()
        records.append(Record(line: recordLine, fields: fields))
        fields = []
        line += 1
        recordLine = line
      default:
        if wasQuoted {
          throw ImportError("line \(line) of \(file)", "text after the closing quote of a field")
        }
        field.append(byte)
      }
    }
    if quoted {
      throw ImportError("line \(recordLine) of \(file)", "the file ends inside a quoted field (is it cut short?)")
    }
    if !field.isEmpty || !fields.isEmpty || wasQuoted {
      endField()
      records.append(Record(line: recordLine, fields: fields))
    }
    try checkWidths(records, file: file)
    return records
  }

  /// Validates without building a String of the whole file: files may be tens of megabytes.
  static func isUTF8(_ bytes: [UInt8]) -> Bool {
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue: continue
      case .emptyInput: return true
      case .error: return false
      }
    }
  }

  /// Every record has as many fields as the header (RFC 4180 §2.4); a blank line is no
  /// record. A row with a field too many or too few is a file cut or joined wrongly, and
  /// guessing which columns it meant would import the wrong values.
  static func checkWidths(_ records: [Record], file: String) throws(ImportError) {
    guard let width = records.first?.fields.count else { return }
    for record in records.dropFirst() where record.fields != [""] && record.fields.count != width {
      throw ImportError(
        "line \(record.line) of \(file)",
        "it has \(record.fields.count) field\(record.fields.count == 1 ? "" : "s") where the header has \(width)")
    }
  }

  /// Quotes a field when it holds a comma, a quote or a line break.
  public static func field(_ text: String) -> String {
    guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
    return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}
