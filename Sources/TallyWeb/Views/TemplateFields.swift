import Mustache
import TallyHTTP

/// Mustache finds a name in a plain value by reflecting the whole value on every use, which
/// made reflection most of a page's time. The values drawn many times per page (grid rows and
/// cells, habit cards) list their fields here instead; the rest keep the reflection default.
protocol TemplateFields: MustacheParent {
  static var templateFields: [String: @Sendable (Self) -> Any?] { get }
}

extension TemplateFields {
  /// A field that is `nil` answers "nothing" rather than "no such field": otherwise Mustache
  /// would go on looking for the name in every enclosing value.
  func child(named name: String) -> Any? {
    guard let field = Self.templateFields[name] else { return nil }
    switch field(self) {
    case let text as String: return TemplateText(text: text)
    case .some(let value): return value
    case nil: return TemplateNull()
    }
  }
}

/// An empty value that ends Mustache's search: renders as nothing, and as false in a section.
struct TemplateNull: MustacheCustomRenderable {
  var renderText: String { "" }
  var isNull: Bool { true }
}

/// A text field as Mustache draws it (escaped, and true in a section even when empty, as a
/// plain string is), but without the reflection and `String(describing:)` a plain value costs
/// on every use.
struct TemplateText: MustacheCustomRenderable {
  let text: String
  var renderText: String { text }
  var isNull: Bool { false }
}

extension TodayModel.Row: TemplateFields {
  static let templateFields: [String: @Sendable (Self) -> Any?] = ["markup": \.markup]
}

extension HabitSummary: TemplateFields {
  static let templateFields: [String: @Sendable (Self) -> Any?] = [
    "id": \.id, "name": \.name, "icon": \.icon, "color": \.color, "group": \.group, "streakText": \.streakText,
    "progressText": \.progressText, "progressCount": \.progressCount, "progressWidth": \.progressWidth,
    "doneToday": \.doneToday, "nextStatus": \.nextStatus, "miniGrid": \.miniGrid, "archived": \.archived,
  ]
}

extension HabitDetail.GridRow: TemplateFields {
  static let templateFields: [String: @Sendable (Self) -> Any?] = ["letter": \.letter, "y": \.y, "cells": \.cells]
}

extension HabitDetail.GridCell: TemplateFields {
  static let templateFields: [String: @Sendable (Self) -> Any?] = [
    "day": \.day, "label": \.label, "name": \.name, "x": \.x, "y": \.y, "paint": \.paint, "marks": \.marks,
    "note": \.note,
    "tabIndex": \.tabIndex, "neutral": \.neutral,
  ]
}

// The values whose fields are looked up from inside loops (a habit row asks for the
// selected day, a card for today).

extension TodayModel: TemplateFields {
  static let templateFields: [String: @Sendable (Self) -> Any?] = [
    "today": \.today, "owner": \.owner, "selectedDay": \.selectedDay, "heading": \.heading,
    "journalLabel": \.journalLabel,
    "isFuture": \.isFuture, "showsTodayButton": \.showsTodayButton, "streakBadge": \.streakBadge,
    "grid": \.grid, "strip": \.strip, "journalText": \.journalText, "hasEntry": \.hasEntry,
    "messages": \.messages, "habits": \.habits, "dueRows": \.dueRows, "back": \.back,
    "restRows": { $0.restRows.isEmpty ? nil : $0.restRows }, "vacations": \.vacations, "onVacation": \.onVacation,
    "resumeChanges": \.resumeChanges,
    "checkTemplates": { _ in TodayModel.checkTemplates }, "messageTemplate": \.messageTemplate,
  ]
}

extension HabitPages.ListModel: TemplateFields {
  static let templateFields: [String: @Sendable (Self) -> Any?] = [
    "groups": \.groups, "archived": \.archived, "archivedHeading": \.archivedHeading, "isEmpty": \.isEmpty,
    "today": \.today,
  ]
}

extension HabitPages.ListModel.Group: TemplateFields {
  static let templateFields: [String: @Sendable (Self) -> Any?] = [
    "name": \.name, "habits": \.habits, "title": \.title, "anchor": \.anchor, "cards": \.cards, "span": \.span,
  ]
}

// The frame and the Today page's parts: every name a loop does not find in its own value is
// looked for in these, so reflecting them (and the whole page's values they hold) would be
// done once per miss.

extension PageContext: MustacheParent {
  func child(named name: String) -> Any? {
    switch name {
    case "chrome": chrome
    case "content": content
    default: nil
    }
  }
}

extension PageChrome: TemplateFields {
  static let templateFields: [String: @Sendable (Self) -> Any?] = [
    "title": \.title, "fullTitle": \.fullTitle, "lang": \.lang, "dir": \.dir, "clockLocale": \.clockLocale, "skipToContent": \.skipToContent,
    "scriptWords": \.scriptWords, "wordsScript": \.wordsScript,
    "userName": \.userName, "userID": \.userID, "nav": \.nav, "theme": \.theme,
    "stylesheet": \.stylesheet, "script": \.script, "pagesStylesheet": \.pagesStylesheet,
    "pagesScript": \.pagesScript, "featuresStylesheet": \.featuresStylesheet, "featuresScript": \.featuresScript,
    "syncScript": \.syncScript, "offlineScript": \.offlineScript, "icon": \.icon, "notice": \.notice,
    "live": \.live, "liveHead": \.liveHead,
  ]
}

extension PageChrome.NavLink: TemplateFields {
  static let templateFields: [String: @Sendable (Self) -> Any?] = [
    "label": \.label, "href": \.href, "current": \.current, "icon": \.icon,
  ]
}

extension TodayModel.DateGrid: TemplateFields {
  static let templateFields: [String: @Sendable (Self) -> Any?] = [
    "width": \.width, "originX": \.originX, "height": \.height, "layoutWidth": \.layoutWidth,
    "columns": \.columns, "wideFrom": \.wideFrom, "rows": \.rows,
  ]
}

extension TodayModel.DateStrip: TemplateFields {
  static let templateFields: [String: @Sendable (Self) -> Any?] = [
    "header": \.header, "width": \.width, "markup": \.markup, "snaps": \.snaps, "scrollTo": \.scrollTo,
    "scrollAnchor": \.scrollAnchor,
  ]
}

extension TodayModel.Message: TemplateFields {
  static let templateFields: [String: @Sendable (Self) -> Any?] = [
    "id": \.id, "text": \.text, "role": \.role, "time": \.time, "writtenOn": \.writtenOn,
    "instant": \.instant, "assistant": \.assistant, "waiting": \.waiting, "editWhich": \.editWhich,
  ]
}

extension TodayModel.CheckFragments: TemplateFields {
  static let templateFields: [String: @Sendable (Self) -> Any?] = ["color": \.color]
}
