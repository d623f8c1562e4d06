/// Which days have a journal entry and which have chat: all the Today view needs to know
/// about the journal, small enough to build once per request.
public struct JournalActivity: Hashable, Sendable {
  public let entryDays: Set<Day>
  /// Days holding at least one `user` message; assistant replies alone do not count.
  public let chatDays: Set<Day>

  public init(entryDays: Set<Day> = [], chatDays: Set<Day> = []) {
    self.entryDays = entryDays
    self.chatDays = chatDays
  }

  public init(entries: some Sequence<JournalEntry>, messages: some Sequence<ChatMessage>) {
    self.init(
      entryDays: Set(entries.lazy.map(\.day)),
      chatDays: Set(messages.lazy.filter { $0.role == .user }.map(\.day)))
  }

  public func hasEntry(_ day: Day) -> Bool { entryDays.contains(day) }
  public func hasChat(_ day: Day) -> Bool { chatDays.contains(day) }
}
