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
    return field(self) ?? TemplateNull()
  }
}

/// An empty value that ends Mustache's search: renders as nothing, and as false in a section.
struct TemplateNull: MustacheCustomRenderable {
  var renderText: String { "" }
  var isNull: Bool { true }
}

extension TodayModel.Row: TemplateFields {
  static let templateFields: [String: @Sendable (Self) -> Any?] = ["markup": \.markup]
}

extension TodayModel.DueHabit: TemplateFields {
  static let templateFields: [String: @Sendable (Self) -> Any?] = [
    "id": \.id, "name": \.name, "icon": \.icon, "color": \.color, "done": \.done, "skipped": \.skipped,
    "detail": \.detail, "nextStatus": \.nextStatus, "note": \.note, "buttonLabel": \.buttonLabel,
    "measure": \.measure,
  ]
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
    "day": \.day, "label": \.label, "x": \.x, "y": \.y, "paint": \.paint, "marks": \.marks, "note": \.note,
    "tabIndex": \.tabIndex,
  ]
}

// The values whose fields are looked up from inside loops (a habit row asks for the
// selected day, a card for today).

extension TodayModel: TemplateFields {
  static let templateFields: [String: @Sendable (Self) -> Any?] = [
    "today": \.today, "owner": \.owner, "selectedDay": \.selectedDay, "heading": \.heading,
    "isFuture": \.isFuture, "showsTodayButton": \.showsTodayButton, "streakBadge": \.streakBadge,
    "grid": \.grid, "strip": \.strip, "journalText": \.journalText, "hasEntry": \.hasEntry,
    "messages": \.messages, "habits": \.habits, "back": \.back,
    "pendingMessage": { _ in TodayModel.pendingMessage }, "checkFragments": { _ in TodayModel.CheckFragments() },
  ]
}

extension HabitPages.ListModel: TemplateFields {
  static let templateFields: [String: @Sendable (Self) -> Any?] = [
    "groups": \.groups, "archived": \.archived, "isEmpty": \.isEmpty, "today": \.today,
  ]
}

extension HabitPages.ListModel.Group: TemplateFields {
  static let templateFields: [String: @Sendable (Self) -> Any?] = [
    "name": \.name, "habits": \.habits, "title": \.title, "anchor": \.anchor, "cards": \.cards, "span": \.span,
  ]
}
