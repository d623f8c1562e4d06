import Foundation
import TallyStore
import Testing

/// What a live stream is woken by: a commit's head, or one read from the database.
@Suite struct FeedHeadsTests {
  /// A request on this instance may read a user's head from the database after another
  /// instance's commit and before that commit's announcement arrives. The read must wake the
  /// user's streams, since the announcement then finds the head already there and wakes none.
  @Test(.timeLimit(.minutes(1))) func aHeadReadFromTheDatabaseWakesStreamsAsACommitWould() async throws {
    let heads = FeedHeads()
    let user = UUID()
    let subscription = try #require(heads.subscribe(user, limits: .init(perUser: 1, total: 1)))
    defer { subscription.stop() }
    var moves = subscription.moves.makeAsyncIterator()
    heads.remember(5, of: user, epoch: heads.epoch)
    #expect(await moves.next() == 5)
    heads.advance([user: 5])
    heads.remember(4, of: user, epoch: heads.epoch)
    heads.advance([user: 6])
    #expect(await moves.next() == 6)
    #expect(heads.head(of: user) == 6)
  }

  /// A head read before every head was forgotten is not kept after: it may predate commits
  /// that went unseen.
  @Test func aHeadReadBeforeForgettingIsNotKept() {
    let heads = FeedHeads()
    let user = UUID()
    let epoch = heads.epoch
    heads.forgetAll(tracking: true)
    heads.remember(3, of: user, epoch: epoch)
    #expect(heads.head(of: user) == nil)
  }
}
