import Foundation
import TallyCore

/// The records of a snapshot whose ids a store must keep unique across all users.
public enum SnapshotRecordKind: Sendable {
  case habit, chatMessage, show, pause
}

extension UserSnapshot {
  /// The snapshot with a new random id for every habit, chat message, show and pause whose id
  /// `isTaken` says is in use, and each episode and pause moved to its show's or habit's new
  /// id, so the file's links survive. Restoring an export into a second account then works, and never tells
  /// the importer that some other account holds an id.
  public func withFreshIDs(
    where isTaken: (SnapshotRecordKind, UUID) throws -> Bool
  ) throws -> UserSnapshot {
    var result = self
    var movedHabits: [UUID: UUID] = [:]
    for index in habits.indices where try isTaken(.habit, habits[index].habit.id) {
      let id = UUID()
      movedHabits[habits[index].habit.id] = id
      result.habits[index].habit.id = id
    }
    for index in pauses.indices {
      if try isTaken(.pause, pauses[index].id) { result.pauses[index].id = UUID() }
      if let habit = pauses[index].habitID, let moved = movedHabits[habit] { result.pauses[index].habitID = moved }
    }
    for index in chat.indices {
      if try isTaken(.chatMessage, chat[index].id) { result.chat[index].id = UUID() }
    }
    var movedShows: [UUID: UUID] = [:]
    for index in shows.indices {
      let show = shows[index]
      guard try isTaken(.show, show.id) else { continue }
      let id = UUID()
      movedShows[show.id] = id
      result.shows[index] = try StoreError.validating { () throws(ValidationError) in
        try Show(id: id, title: show.title, status: show.status, providers: show.providers, tmdbID: show.tmdbID)
      }
    }
    guard !movedShows.isEmpty else { return result }
    result.episodes = try episodes.map { episode -> Episode in
      guard let id = movedShows[episode.showID] else { return episode }
      return try StoreError.validating { () throws(ValidationError) in
        try Episode(
          showID: id, season: episode.season, number: episode.number, title: episode.title,
          airDay: episode.airDay)
      }
    }
    return result
  }
}
