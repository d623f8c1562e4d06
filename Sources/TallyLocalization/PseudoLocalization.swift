/// The pseudo-locale `qps`: English made visibly foreign so a test can find what a page
/// shows without a key. Each string is wrapped in ``open`` … ``close``, its Latin letters
/// carry accents, and it grows by about 40% (the room German or Finnish need); placeholders
/// and plural keys stay as they are, so the page fills them in as usual.
public enum PseudoLocalization {
  public static let code = "qps"
  public static let open = "⟦"
  public static let close = "⟧"
  /// How much longer each string gets, as a share of its text outside placeholders.
  public static let growth = 0.4

  public static func catalog(from english: Catalog) -> Catalog {
    Catalog(templates: english.templates.mapValues { Template(pseudo($0)) })
  }

  /// `"{{count}} habits"` becomes `"⟦{{count}} ĥåƀîţš ·····⟧"`-like text.
  public static func pseudo(_ template: Template) -> String {
    var result = open
    var letters = 0
    for part in template.parts {
      switch part {
      case .placeholder(let name): result += "{{\(name)}}"
      case .text(let text):
        for character in text {
          result.append(accented[character] ?? character)
          letters += 1
        }
      }
    }
    let padding = Int((Double(letters) * growth).rounded(.up))
    if padding > 0 { result += " " + String(repeating: "·", count: max(padding - 1, 1)) }
    return result + close
  }

  private static let accented: [Character: Character] = {
    let plain = "abcdeghijklnorstuwyzABCDEGHIJKLNORSTUWYZ"
    let marked = "åƀçđéĝĥîĵķļñöŕšţûŵýžÅßÇĐÉĜĤÎĴĶĻÑÖŔŠŢÛŴÝŽ"
    return Dictionary(uniqueKeysWithValues: zip(plain, marked))
  }()
}
