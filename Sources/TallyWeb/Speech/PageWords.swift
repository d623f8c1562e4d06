import Mustache
import TallyLocalization

/// A page's fixed words as its template names them: `{{t.today.habits}}` is the text of the
/// key `today.habits` in the page's language. Words that take values or counts are made by the
/// page's model instead (``Translator/text(_:_:)``, ``Translator/plural(_:count:_:)``).
struct PageWords: MustacheParent, MustacheCustomRenderable, Sendable {
  let translator: Translator
  let path: String

  init(_ translator: Translator, path: String = "") {
    self.translator = translator
    self.path = path
  }

  func child(named name: String) -> Any? {
    let key = path.isEmpty ? name : path + "." + name
    return translator.hasText(key) ? TemplateText(text: translator.text(key)) : PageWords(translator, path: key)
  }

  /// A name no catalog has: drawn as the translator draws any missing key, reported once.
  var renderText: String { translator.text(path) }
  var isNull: Bool { false }
}

/// A value drawn outside a page (a `<template>` kept once per language) with the words its
/// template names as `t`.
struct Worded<Value: MustacheParent & Sendable>: MustacheParent, Sendable {
  let value: Value
  let words: PageWords

  init(_ value: Value, words: PageWords) {
    self.value = value
    self.words = words
  }

  func child(named name: String) -> Any? { name == "t" ? words : value.child(named: name) }
}
