import DeepLink
import Dispatch
import JSON
import Synchronization
import Testing

@testable import CoordinatorGraph

/// A decision keeps its fields in one box shared by its copies; these tests hold that a copy still behaves as a
/// value: changing one never shows in another, wherever the change comes from.
@Suite struct DecisionCopyTests {
    typealias S = Shop

    /// A gated decision from the resolver (its steps are a plan, it has a pending page) and its text.
    static func gated() throws -> Decision {
        try S.resolve(S.p("cart.checkout"), nil).decision
    }

    static func text(_ decision: Decision) -> String {
        String(decoding: decision.jsonText.bytes, as: UTF8.self)
    }

    /// Each field changed on a copy, the original compared with a copy taken before any change.
    @Test(arguments: 0..<11)
    func changingACopyLeavesTheOriginal(field: Int) throws {
        let original = try Self.gated()
        let before = Self.text(original)
        var copy = original
        #expect(copy == original)
        switch field {
        case 0: copy.id = "other"
        case 1: copy.device = "phone-2"
        case 2: copy.outcome = .fallback
        case 3: copy.source = DecisionSource(format: "apns", field: "deeplink", link: "shop://x")
        case 4: copy.page = S.p("catalog.home")
        case 5: copy.path.append("extra")
        case 6: copy.steps = [Step(.activate, "app")]
        case 7: copy.pending = nil
        case 8: copy.warnings = ["w"]
        case 9: copy.trace = ["t"]
        default: copy.createdAt = Timestamp(millisecondsSince1970: 0)
        }
        #expect(copy != original)
        #expect(Self.text(original) == before)
        #expect(Self.text(copy) != before)
    }

    /// Appending in place to an array field of a shared decision copies the box first, and a decision alone
    /// changes in place: both read back what was written.
    @Test func arrayFieldsChangeInPlaceOnlyOnTheirOwnDecision() throws {
        var decision = try Self.gated()
        let shared = decision
        decision.warnings = []
        decision.warnings?.append("a")
        decision.warnings?.append("b")
        decision.trace = ["one"]
        decision.trace?.append("two")
        #expect(decision.warnings == ["a", "b"])
        #expect(decision.trace == ["one", "two"])
        #expect(shared.warnings == nil)
        #expect(shared.trace == nil)
        #expect(decision.path == shared.path)
    }

    /// A decision changed on one thread while copies are read on others: every reader sees the text it started
    /// with.
    @Test func copiesReadOnOtherThreadsKeepTheirText() throws {
        let original = try Self.gated()
        let before = Self.text(original)
        let copies = (0..<8).map { _ in original }
        let mismatches = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 16) { i in
            if i < 8 {
                var mine = copies[i]
                for n in 0..<200 { mine.warnings = ["\(i).\(n)"] }
                if mine.warnings != ["\(i).199"] { mismatches.withLock { $0 += 1 } }
            } else {
                for _ in 0..<200 where Self.text(copies[i - 8]) != before { mismatches.withLock { $0 += 1 } }
            }
        }
        #expect(mismatches.withLock { $0 } == 0)
        #expect(Self.text(original) == before)
    }
}
