import DeepLink
import JSON
import Testing

@testable import CoordinatorGraph

/// A decision the resolver made keeps its steps as indices (a ``StepPlan``) and writes its text from them; these
/// tests hold that text, equality and decoding to those of the same decision with its steps named.
@Suite struct StepPlanTests {
    typealias S = Shop
    typealias R = ResolverApplyReferenceTests

    /// Names the graph does not declare, two of them with bytes a JSON string escapes.
    static let foreign = ["legacy", "quote\"and\\backslash", "tab\tand\u{1}control", "ünïcode ✓"]

    /// `decision` with its steps set as ``Step`` values (the way a decoded decision keeps them).
    static func named(_ decision: Decision) -> Decision {
        var copy = decision
        copy.steps = decision.steps
        return copy
    }

    /// The decision's text, as a string (for readable failures).
    static func text(_ decision: Decision) -> String {
        String(decoding: decision.jsonText.bytes, as: UTF8.self)
    }

    @Test func aDecisionIsWrittenAsItsNamedStepsAre() throws {
        var g = R.Generator(state: 0xD1CE)
        var foreignParents = 0
        var pageSteps = 0
        for round in 0..<1_500 {
            var state = R.randomState(&g)
            if Bool.random(using: &g) { state.conditions = ["session"] }
            if Bool.random(using: &g) {
                // A name the graph does not declare on top: a gate or a parentless modal is presented over it.
                let name = Self.foreign.randomElement(using: &g)!
                state.path.removeAll { $0 == name }
                state.path.append(name)
                if !state.started.contains(name) { state.started.append(name) }
            }
            let page = R.pages.randomElement(using: &g)!
            let decision = try S.resolver.resolve(
                page, state: state, now: S.t0, metadata: S.metadata(), explain: Bool.random(using: &g)
            ).decision
            #expect(decision.plan != nil)
            #expect(decision.pathIndices != nil)
            let named = Self.named(decision)
            #expect(named.plan == nil)
            #expect(named.pathIndices == nil)
            #expect(named.path == decision.path && decision.path.first == "app")
            var visited: [String] = []
            decision.forEachPathName { visited.append($0) }
            #expect(visited == decision.path)
            #expect(Self.text(decision) == Self.text(named), "round \(round): \(page) from \(state)")
            #expect(decision == named)
            #expect(decision.hashValue == named.hashValue)
            #expect(try Decision(json: decision.json, graph: S.graph) == decision)
            foreignParents += decision.steps.filter { Self.foreign.contains($0.parent ?? "") }.count
            pageSteps += decision.steps.filter { $0.pageValue != nil }.count
            if decision.jsonText != named.jsonText { return }
        }
        #expect(foreignParents > 0, "some steps name a coordinator the graph does not declare")
        #expect(pageSteps > 1_500)
    }

    /// Modals and gates are presented over a top the graph does not declare: the step names it, escaped.
    @Test(arguments: foreign)
    func aNameTheGraphDoesNotDeclareIsWrittenEscaped(name: String) throws {
        for page in [S.p("login.login"), S.p("onboarding.privacy"), S.p("payment.pay", ["order": .int(7)])] {
            let state = DeviceState(path: ["app", name], started: ["app", name])
            let decision = try S.resolver.resolve(page, state: state, now: S.t0, metadata: S.metadata()).decision
            #expect(decision.steps[1].parent == name, "\(decision.steps)")
            #expect(Self.text(decision) == Self.text(Self.named(decision)))
            let json = try JSON.parse(decision.jsonText.bytes)
            #expect(try Decision(json: json, graph: S.graph).steps[1].parent == name)
        }
    }

    @Test func settingTheStepsReplacesThePlan() throws {
        var decision = try S.resolver.resolve(
            S.p("cart.offer", ["id": .string("S")]), state: nil, now: S.t0, metadata: S.metadata()
        ).decision
        let planned = decision.steps
        #expect(planned.map(\.description).last == "display cart cart.offer(id: \"S\")")
        decision.steps.removeLast()
        #expect(decision.plan == nil)
        #expect(decision.steps == Array(planned.dropLast()))
        let text = String(decoding: decision.jsonText.bytes, as: UTF8.self)
        #expect(!text.contains("display"))
        #expect(try Decision(json: JSON.parse(decision.jsonText.bytes), graph: S.graph).steps == decision.steps)
    }

    /// The resolver's decision keeps its path as indices; changing it keeps it by name, the steps still planned.
    @Test func changingThePathKeepsItByName() throws {
        var decision = try S.resolver.resolve(
            S.p("cart.offer", ["id": .string("S")]), state: nil, now: S.t0, metadata: S.metadata()
        ).decision
        let path = decision.path
        #expect(decision.pathIndices != nil && path.count > 1)
        decision.path.append("quote\"d")
        #expect(decision.pathIndices == nil)
        #expect(decision.plan != nil)
        #expect(decision.path == path + ["quote\"d"])
        var visited: [String] = []
        decision.forEachPathName { visited.append($0) }
        #expect(visited == decision.path)
        #expect(Self.text(decision) == Self.text(Self.named(decision)))
        let decoded = try Decision(json: JSON.parse(decision.jsonText.bytes))
        #expect(decoded.path == path + ["quote\"d"])
    }

    @Test func namesAreEscapedOnceAsAJSONStringEscapesThem() {
        let names = ["plain", "", "quote\"", "back\\slash", "nl\n", "\u{0}", "ünï", String(repeating: "x", count: 40)]
        let texts = EscapedTexts(names)
        for (i, name) in names.enumerated() {
            var out = ByteWriter()
            texts.write(i, into: &out)
            var expected = ByteWriter()
            JSON.writeStringContents(name, into: &expected)
            #expect(out.withBytes { Array($0) } == expected.withBytes { Array($0) }, "\(name)")
        }
    }
}
