/// Columns of text aligned for a terminal: two spaces between columns, numbers flush right,
/// no trailing spaces.
struct TextTable {
  enum Alignment { case left, right }

  var alignments: [Alignment]
  var rows: [[String]] = []

  init(_ alignments: [Alignment]) {
    self.alignments = alignments
  }

  mutating func add(_ row: [String]) {
    rows.append(row)
  }

  var lines: [String] {
    let columns = alignments.count
    var widths = [Int](repeating: 0, count: columns)
    for row in rows {
      for (index, cell) in row.prefix(columns).enumerated() {
        widths[index] = max(widths[index], cell.count)
      }
    }
    return rows.map { row in
      var line = ""
      for index in 0..<columns {
        let cell = index < row.count ? row[index] : ""
        let padding = String(repeating: " ", count: widths[index] - cell.count)
        if index > 0 { line += "  " }
        line += alignments[index] == .left ? cell + padding : padding + cell
      }
      while line.hasSuffix(" ") { line.removeLast() }
      return line
    }
  }
}
