@testable import TallyLocalization

/// The plural rules of the sixteen languages for whole numbers, transcribed from CLDR's
/// language plural rules chart: an oracle written apart from ICU, for the property test.
enum CLDRIntegerRules {
  static func category(_ language: Language, _ n: Int) -> PluralCategory {
    let mod10 = n % 10, mod100 = n % 100
    let isMillions = n != 0 && n % 1_000_000 == 0
    switch language {
    case .simplifiedChinese, .japanese, .korean, .indonesian: return .other
    case .english, .german, .dutch, .turkish: return n == 1 ? .one : .other
    case .spanish, .italian: return n == 1 ? .one : isMillions ? .many : .other
    case .french, .brazilianPortuguese: return n == 0 || n == 1 ? .one : isMillions ? .many : .other
    case .russian, .ukrainian:
      if mod10 == 1 && mod100 != 11 { return .one }
      if (2...4).contains(mod10) && !(12...14).contains(mod100) { return .few }
      return .many
    case .polish:
      if n == 1 { return .one }
      if (2...4).contains(mod10) && !(12...14).contains(mod100) { return .few }
      return .many
    case .arabic:
      switch n {
      case 0: return .zero
      case 1: return .one
      case 2: return .two
      default: return (3...10).contains(mod100) ? .few : (11...99).contains(mod100) ? .many : .other
      }
    }
  }
}
