import CoordinatorGraph
import DeepLink
import Foundation
import JSON
import Testing

/// A payload's unused parts travel with the decision, and a fallback names the link that led to it.
@Suite struct DecisionWarningsTests {
    typealias S = Shop

    /// `config/shop.yaml`, whose patterns and fallback the candidates are matched against.
    static func shopGraph() throws -> Graph {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("config/shop.yaml")
        guard case .success(let loaded) = ConfigLoader.load([UInt8](try Data(contentsOf: url)), file: "shop.yaml")
        else { throw CancellationError() }
        return loaded.graph
    }

    @Test func warningsAreWrittenOnlyWhenThereAreSomeAndReadBack() throws {
        var decision = try S.resolve(S.p("catalog.home"), nil).decision
        #expect(decision.json["warnings"] == nil)
        #expect(!String(decoding: decision.jsonText.bytes, as: UTF8.self).contains("warnings"))
        decision.warnings = ["aps.thread_id: unknown key inside aps; APNs uses 'thread-id'"]
        let json = decision.json
        #expect(json["warnings"] == .array([.string("aps.thread_id: unknown key inside aps; APNs uses 'thread-id'")]))
        // The byte writer and the JSON value agree, and both read back.
        #expect(try JSON.parse(String(decoding: decision.jsonText.bytes, as: UTF8.self)) == json)
        #expect(try Decision(json: json, graph: S.graph).warnings == decision.warnings)
        #expect(try Decision(json: json).warnings == decision.warnings)
    }

    @Test func aFallbackNamesTheOwnedLinkNotARefusedForeignOne() throws {
        let candidates = [
            LinkCandidate(format: .apns, field: "deeplink", target: .link("https://evil.com/x")),
            LinkCandidate(format: .apns, field: "url", target: .link("shop://nothing/here")),
        ]
        let target = try Self.shopGraph().target(for: candidates).get()
        #expect(target.outcome == .fallback)
        #expect(target.source == DecisionSource(format: "apns", field: "url", link: "shop://nothing/here"))
    }

    @Test func aForeignLinkAloneFallsBackNamingItAndWhy() throws {
        let candidates = [LinkCandidate(format: .apns, field: "deeplink", target: .link("https://evil.com/x"))]
        let target = try Self.shopGraph().target(for: candidates).get()
        #expect(target.outcome == .fallback)
        #expect(target.source == DecisionSource(format: "apns", field: "deeplink", link: "https://evil.com/x"))
        #expect(
            target.warnings == [
                "deeplink: 'https://evil.com/x' is refused: host 'evil.com' is not allowed; allowed: "
                    + "shop.example.com, *.shop.example.com"
            ])
    }

    @Test func anEmptyCategoryValueIsAMissingOneAndFallsBack() throws {
        let graph = try Self.shopGraph()
        let empty = graph.page(PageID("catalog.product")!, argumentTexts: [("id", "")])
        guard case .failure(let error) = empty else {
            Issue.record("catalog.product(id: \"\") is a page no link can express")
            return
        }
        #expect(error.reasons == ["catalog.product: the value for 'id' is empty"])
        let candidates = [
            LinkCandidate(
                format: .apns, field: "aps.category",
                target: .page(PageID("catalog.product")!, arguments: [("id", "")], category: "PRICE_DROP"))
        ]
        #expect(try graph.target(for: candidates).get().outcome == .fallback)
    }
}
