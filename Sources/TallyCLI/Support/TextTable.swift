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

  /// Columns a terminal gives the text: emoji take two.
  static func width(_ text: String) -> Int {
    text.reduce(0) { sum, character in
      let wide = character.unicodeScalars.first.map {
        $0.properties.isEmojiPresentation || character.unicodeScalars.contains("\u{FE0F}")
      } ?? false
      return sum + (wide ? 2 : 1)
    }
  }

  var lines: [String] {
    let columns = alignments.count
    var widths = [Int](repeating: 0, count: columns)
    for row in rows {
      for (index, cell) in row.prefix(columns).enumerated() {
        widths[index] = max(widths[index], TextTable.width(cell))
      }
    }
    return rows.map { row in
      var line = ""
      for index in 0..<columns {
        let cell = index < row.count ? row[index] : ""
        let padding = String(repeating: " ", count: widths[index] - TextTable.width(cell))
        if index > 0 { line += "  " }
        line += alignments[index] == .left ? cell + padding : padding + cell
      }
      while line.hasSuffix(" ") { line.removeLast() }
      return line
    }
  }
}
