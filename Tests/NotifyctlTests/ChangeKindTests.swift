import CoordinatorGraph
import JSON
import NotifyctlCore
import Testing

/// ``ChangeKind/of(before:after:link:current:candidate:)`` on destinations as decisions write them.
@Suite struct ChangeKindTests {
    /// A destination: `outcome page path [gate condition]`, e.g. `gated cart.cart app/main/cart login session`.
    static func destination(_ text: String) throws -> Destination {
        let parts = text.split(separator: " ").map(String.init)
        var decision: JSONObject = [
            "outcome": .string(parts[0]),
            "page": ["id": .string(parts[1].split(separator: "(")[0].description), "description": .string(parts[1])],
            "path": .array(parts[2].split(separator: "/").map { .string(String($0)) }),
        ]
        if parts.count == 5 {
            decision["pending"] = ["gate": .string(parts[3]), "condition": .string(parts[4])]
        }
        return try Destination(decisionJSON: .object(decision))
    }

    static let refused: Destination = Destination(
        refusedWith: OfflineRouteError(.noRoute(link: "x", reasons: ["link: no pattern matches 'x'"])))

    /// Two configs: the current one declares `old.*`, `both.*` and the host `a.example`; the candidate `new.*`,
    /// `both.*` and the host `b.example`; both the scheme `shop`.
    static let current = ConfigFacts(
        graphJSON: [
            "app": ["schemes": ["shop"], "hosts": ["a.example"]],
            "coordinators": [["pages": [["id": "old.page"], ["id": "both.one"], ["id": "both.two"]]]],
        ])
    static let candidate = ConfigFacts(
        graphJSON: [
            "app": ["schemes": ["shop"], "hosts": ["b.example"]],
            "coordinators": [["pages": [["id": "new.page"], ["id": "both.one"], ["id": "both.two"]]]],
        ])

    static func kind(_ before: Destination, _ after: Destination, link: String? = nil) -> ChangeKind? {
        ChangeKind.of(before: before, after: after, link: link, current: current, candidate: candidate)
    }

    @Test(arguments: [
        ("routed both.one app/main/x", "routed both.one app/main/x", nil),
        ("routed old.page app/x", "routed new.page app/x", ChangeKind.pageRenamed),
        ("routed old.page app/x", "routed both.one app/x", .pageRemoved),
        ("routed both.one app/x", "routed both.two app/x", .patternMoved),
        ("routed both.one app/x", "routed new.page app/x", .patternMoved),
        ("routed both.one(id:_1) app/x", "routed both.one(id:_2) app/x", .argumentsChanged),
        ("routed both.one app/x", "gated both.one app/x login session", .gateAdded),
        ("gated both.one app/x login session", "routed both.one app/x", .gateRemoved),
        ("gated both.one app/x login session", "gated both.one app/x paywall member", .gateChanged),
        ("routed both.one app/main/x", "routed both.one app/other/x", .pathChanged),
        ("fallback both.one app/x", "fallback both.two app/x", .fallbackChanged),
        ("routed both.one app/x", "fallback both.two app/x", .patternRemoved),
        ("fallback both.two app/x", "routed both.one app/x", .patternAdded),
        ("routed both.one app/x", "opened both.one app/x", .outcomeChanged),
    ])
    func twoDestinationsAreOneKindOfChange(before: String, after: String, kind: ChangeKind?) throws {
        #expect(Self.kind(try Self.destination(before), try Self.destination(after)) == kind)
    }

    @Test func aRefusalIsToldApartByTheLinksOrigin() throws {
        let routed = try Self.destination("routed both.one app/x")
        let fallback = try Self.destination("fallback both.one app/x")
        #expect(Self.kind(routed, Self.refused, link: "https://a.example/x") == .hostRemoved)
        #expect(Self.kind(routed, Self.refused, link: "shop://x") == .nowRefused)
        #expect(Self.kind(fallback, Self.refused, link: "shop://x") == .fallbackRemoved)
        #expect(Self.kind(Self.refused, routed, link: "https://b.example/x") == .hostAdded)
        #expect(Self.kind(Self.refused, fallback, link: "shop://x") == .fallbackAdded)
        #expect(Self.kind(Self.refused, routed, link: "shop://x") == .nowRouted)
        #expect(Self.kind(Self.refused, Self.refused, link: "ftp://x") == nil, "refused both ways: no change")
        let schemes = ConfigFacts(graphJSON: ["app": ["schemes": ["other"], "hosts": []]])
        #expect(
            ChangeKind.of(
                before: routed, after: Self.refused, link: "shop://x", current: Self.current, candidate: schemes)
                == .schemeRemoved)
    }

    @Test func theAspectsSayWhatDiffers() throws {
        let before = try Self.destination("routed both.one app/x")
        let after = try Self.destination("gated both.one app/y login session")
        #expect(before.differences(from: after) == [.outcome, .path, .gate])
        #expect(before.differences(from: Self.refused) == [.outcome, .page, .path])
    }
}
