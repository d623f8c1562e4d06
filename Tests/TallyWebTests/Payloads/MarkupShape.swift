import Foundation

/// The elements and attributes an HTML page holds, read the way a browser's tokenizer reads
/// them (comments, raw text in `script`, `style`, `textarea` and HTML's `title`, quoted and
/// bare attribute values), and its texts with their entities decoded: enough to tell markup
/// a stored text made from markup a template wrote, and to see the text shown as typed.
struct MarkupShape {
  /// How many elements of each name, lowercased.
  private(set) var elements: [String: Int] = [:]
  /// How many of each `element attribute` pair, lowercased.
  private(set) var attributes: [String: Int] = [:]
  /// Text between tags and every attribute value, decoded.
  private(set) var texts: [String] = []
  /// The values of attributes that a browser follows or loads as an address.
  private(set) var addresses: [String] = []

  private static let rawText: Set<String> = ["script", "style", "textarea", "title"]
  private static let addressAttributes: Set<String> = ["href", "src", "action", "formaction", "xlink:href", "poster", "data"]

  init(_ html: String) {
    let bytes = Array(html.utf8)
    var index = 0
    var svgDepth = 0
    var textStart = 0

    func at(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }
    func isSpace(_ byte: UInt8) -> Bool { [9, 10, 12, 13, 32].contains(byte) }
    func isLetter(_ byte: UInt8?) -> Bool {
      guard let byte else { return false }
      return (65...90).contains(byte) || (97...122).contains(byte)
    }
    func text(_ from: Int, _ to: Int) -> String { String(decoding: bytes[from..<to], as: UTF8.self) }
    func find(_ needle: String, from start: Int) -> Int? {
      let pattern = Array(needle.utf8)
      var position = start
      while position + pattern.count <= bytes.count {
        if zip(bytes[position..<position + pattern.count], pattern).allSatisfy({ $0 | 0x20 == $1 | 0x20 }) {
          return position
        }
        position += 1
      }
      return nil
    }

    while index < bytes.count {
      guard bytes[index] == UInt8(ascii: "<") else {
        index += 1
        continue
      }
      if index > textStart { texts.append(Self.decoded(text(textStart, index))) }
      if at(1) == UInt8(ascii: "!") {
        let end = text(index, min(index + 4, bytes.count)) == "<!--" ? find("-->", from: index + 4).map { $0 + 3 } : nil
        index = end ?? (find(">", from: index).map { $0 + 1 } ?? bytes.count)
      } else if at(1) == UInt8(ascii: "/") {
        let close = find(">", from: index) ?? bytes.count
        if text(index + 2, close).lowercased().trimmingCharacters(in: .whitespaces) == "svg" { svgDepth -= 1 }
        index = close + 1
      } else if isLetter(at(1)) {
        index += 1
        let nameStart = index
        while index < bytes.count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: "/"), bytes[index] != UInt8(ascii: ">") {
          index += 1
        }
        let name = text(nameStart, index).lowercased()
        elements[name, default: 0] += 1
        var selfClosing = false
        attributes: while index < bytes.count {
          switch bytes[index] {
          case UInt8(ascii: ">"):
            index += 1
            break attributes
          case UInt8(ascii: "/"):
            selfClosing = at(1) == UInt8(ascii: ">")
            index += 1
          case let byte where isSpace(byte):
            index += 1
          default:
            let attributeStart = index
            index += 1
            while index < bytes.count, !isSpace(bytes[index]), ![UInt8(ascii: "/"), UInt8(ascii: ">"), UInt8(ascii: "=")].contains(bytes[index]) {
              index += 1
            }
            let attribute = text(attributeStart, index).lowercased()
            attributes["\(name) \(attribute)", default: 0] += 1
            while index < bytes.count, isSpace(bytes[index]) { index += 1 }
            guard at(0) == UInt8(ascii: "=") else { continue }
            index += 1
            while index < bytes.count, isSpace(bytes[index]) { index += 1 }
            let value: String
            if let quote = at(0), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
              let end = bytes[(index + 1)...].firstIndex(of: quote) ?? bytes.count
              value = text(index + 1, end)
              index = end + 1
            } else {
              let start = index
              while index < bytes.count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">") { index += 1 }
              value = text(start, index)
            }
            let decoded = Self.decoded(value)
            texts.append(decoded)
            if Self.addressAttributes.contains(attribute) { addresses.append(decoded) }
          }
        }
        if name == "svg", !selfClosing { svgDepth += 1 }
        if Self.rawText.contains(name), !(name == "title" && svgDepth > 0), !selfClosing {
          let end = find("</\(name)", from: index) ?? bytes.count
          texts.append(Self.decoded(text(index, end)))
          index = end
        }
      } else {
        index += 1
        continue
      }
      textStart = index
    }
    if textStart < bytes.count { texts.append(Self.decoded(text(textStart, bytes.count))) }
  }

  /// The elements and attributes `self` has more of than `other`, as a list to print.
  func beyond(_ other: MarkupShape) -> [String] {
    elements.filter { $0.value > other.elements[$0.key, default: 0] }.keys.sorted().map { "<\($0)>" }
      + attributes.filter { $0.value > other.attributes[$0.key, default: 0] }.keys.sorted().map { "attribute \($0)" }
  }

  /// Text with the entities pages use decoded (named, decimal and hexadecimal). By scalar: a
  /// combining mark after `;` makes one `Character` of the two.
  static func decoded(_ text: String) -> String {
    guard text.unicodeScalars.contains("&") else { return text }
    var out = String.UnicodeScalarView()
    var rest = text.unicodeScalars[...]
    while let amp = rest.firstIndex(of: "&") {
      out += rest[..<amp]
      rest = rest[amp...]
      guard let semicolon = rest.prefix(12).firstIndex(of: ";") else {
        out.append("&")
        rest = rest.dropFirst()
        continue
      }
      let entity = String(String.UnicodeScalarView(rest[rest.index(after: rest.startIndex)..<semicolon]))
      let named: [String: Unicode.Scalar] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}"]
      var scalar: Unicode.Scalar?
      if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
        scalar = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
      } else if entity.hasPrefix("#") {
        scalar = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init)
      } else {
        scalar = named[entity]
      }
      guard let scalar else {
        out.append("&")
        rest = rest.dropFirst()
        continue
      }
      out.append(scalar)
      rest = rest[rest.index(after: semicolon)...]
    }
    out += rest
    return String(out)
  }
}
