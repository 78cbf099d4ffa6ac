import CoordinatorGraph
import DeepLink
import Testing

/// A decision that drops a device's pending page says so in its warnings: the page, and what took its place.
@Suite struct ResolverPendingWarningTests {
    typealias S = Shop

    @Test func routingAwayWarnsThatThePendingPageWasDropped() throws {
        let gated = try S.resolve(S.p("cart.checkout"), nil)
        let r = try S.resolve(S.p("catalog.home"), gated.state, at: S.t0.adding(seconds: 30))
        #expect(r.state.pending == nil)
        #expect(r.decision.warnings == ["pending page cart.checkout dropped: this decision dismissed login, its gate"])
        #expect(
            r.decision.json["warnings"] == [
                "pending page cart.checkout dropped: this decision dismissed login, its gate"
            ])
    }

    @Test func aNewerGatedPageWarnsThatItTookThePlaceOfTheOlder() throws {
        let first = try S.resolve(S.p("cart.checkout"), nil)
        let order = S.p("account.order", ["id": .int(5)])
        let second = try S.resolve(order, first.state, at: S.t0.adding(seconds: 30))
        #expect(
            second.decision.warnings == [
                "pending page cart.checkout dropped: account.order(id: 5) now waits behind login in its place"
            ])
    }

    @Test func theSamePageGatedAgainIsNoDrop() throws {
        let first = try S.resolve(S.p("cart.checkout"), nil)
        let again = try S.resolve(S.p("cart.checkout"), first.state, at: S.t0.adding(seconds: 30))
        #expect(again.decision.outcome == .gated)
        #expect(again.decision.warnings == nil)
    }

    @Test func anExpiredPendingPageGoesWithoutAWord() throws {
        let gated = try S.resolve(S.p("cart.checkout"), nil)
        let late = try S.resolve(S.p("catalog.home"), gated.state, at: S.t0.adding(seconds: 600))
        #expect(late.state.pending == nil)
        #expect(late.decision.warnings == nil)
    }

    @Test func nothingPendingNothingToSay() throws {
        let state = try S.resolve(S.p("catalog.home"), nil).state
        #expect(try S.resolve(S.p("cart.cart"), state).decision.warnings == nil)
    }
}
