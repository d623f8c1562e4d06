import Foundation
import TallyOIDCTesting
import Testing

@testable import TallyOIDC

@Suite struct PendingSignInsTests {
  let start = Date(timeIntervalSince1970: 1_788_000_000)

  func pending(_ state: String, at offset: TimeInterval = 0) -> PendingSignIn {
    PendingSignIn(
      state: state, nonce: "n-\(state)", pkce: PKCE(verifier: "v-\(state)"), redirectURI: "r", purpose: "",
      createdAt: start + offset)
  }

  @Test func aSignInIsTakenOnce() async {
    let kept = PendingSignIns()
    await kept.keep(pending("a"))
    #expect(await kept.take(state: "a", at: start + 1) == pending("a"))
    #expect(await kept.take(state: "a", at: start + 2) == nil)
    #expect(await kept.take(state: "never-issued", at: start + 2) == nil)
  }

  @Test func aSignInLivesAtMostItsLifetime() async {
    let kept = PendingSignIns(lifetime: 600)
    await kept.keep(pending("a"))
    await kept.keep(pending("b"))
    #expect(await kept.take(state: "a", at: start + 599) != nil)
    #expect(await kept.take(state: "b", at: start + 600) == nil)
  }

  @Test func expiredSignInsAreForgottenAndTheOldestGiveWayPastCapacity() async {
    let kept = PendingSignIns(lifetime: 600, capacity: 3)
    for (index, state) in ["a", "b", "c", "d"].enumerated() {
      await kept.keep(pending(state, at: TimeInterval(index)))
    }
    #expect(await kept.count == 3)
    #expect(await kept.take(state: "a", at: start + 10) == nil)
    #expect(await kept.take(state: "d", at: start + 10) != nil)
    // Ten minutes on, a new sign-in finds the old ones gone.
    await kept.keep(pending("e", at: 700))
    #expect(await kept.count == 1)
  }

  @Test func aFloodOfSignInsStaysWithinCapacity() async {
    let kept = PendingSignIns(lifetime: 600, capacity: 100)
    for index in 0..<1_000 {
      await kept.keep(pending("s\(index)", at: TimeInterval(index) / 10))
      if index.isMultiple(of: 3) { _ = await kept.take(state: "s\(index)", at: start) }
    }
    #expect(await kept.count <= 100)
    #expect(await kept.take(state: "s998", at: start + 100) != nil)
  }
}
