import DeepLink
import Foundation
import JSON
import Testing

@Suite struct PageWritingTests {
    static let odd = [
        "SUMMER", "", "a \"quoted\" slug", "back\\slash", "line\nbreak\r\ttab", "\u{1}\u{7f}\u{1f}", "é€😀", "\u{2028}",
    ]

    @Test(arguments: odd)
    func descriptionSpellsStringsAsSwiftLiterals(text: String) {
        let page = Page(
            id: PageID(coordinator: "cart", name: "offer"),
            arguments: [
                Page.Argument(label: "id", value: .string(text)), Page.Argument(label: "n", value: .int(-7)),
                Page.Argument(label: "sort", value: .enumCase("price")),
                Page.Argument(label: "on", value: .bool(false)),
            ])
        let literal = Value.string(text).description
        #expect(page.description == "cart.offer(id: \(literal), n: -7, sort: .price, on: false)")
        #expect(literal.first == "\"" && literal.last == "\"")
        #expect(!literal.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
    }

    /// The description written as a JSON string, in place or built first, is the description escaped.
    @Test(arguments: odd + ["plain", "ünï ✓", "sp ace", "del\u{7f}"])
    func descriptionIsWrittenAsTheEscapedDescription(text: String) {
        let uuid = PageUUID(uuidString: "8E1F6A4B-1C2D-4E5F-8A9B-0C1D2E3F4A5B")!
        let values: [Value] = [.string(text), .int(-3), .bool(true), .uuid(uuid), .enumCase("price"), .string("S")]
        for count in 1...values.count {
            for first in values.indices {
                let arguments = (0..<count).map { i in
                    Page.Argument(label: "a\(i)", value: values[(first + i) % values.count])
                }
                let page = Page(id: PageID(coordinator: "cart", name: "offer"), arguments: arguments)
                var written = ByteWriter()
                page.writeDescriptionJSONString(into: &written)
                var expected = ByteWriter()
                JSON.writeString(page.description, into: &expected)
                let got = String(decoding: written.finish(), as: UTF8.self)
                let escaped = String(decoding: expected.finish(), as: UTF8.self)
                #expect(got == escaped)
            }
        }
    }

    @Test(arguments: odd)
    func writtenPageIsTheTreeSerialized(text: String) {
        let uuid = PageUUID(uuidString: "8E1F6A4B-1C2D-4E5F-8A9B-0C1D2E3F4A5B")!
        let page = Page(
            id: PageID(coordinator: "magazine", name: "article"),
            arguments: [
                Page.Argument(label: "slug", value: .string(text)), Page.Argument(label: "ref", value: .uuid(uuid)),
                Page.Argument(label: "page", value: .int(Int.min)), Page.Argument(label: "on", value: .bool(true)),
            ])
        var written = ByteWriter()
        let description = page.writeJSON(into: &written)
        Self.expectDescription(of: page, at: description, in: written)
        #expect(written.finish() == JSONText(page.json).bytes)
        #expect(Page(id: PageID(coordinator: "app", name: "home")).description == "app.home")
    }

    /// The range `writeJSON` returns holds the description as a JSON string, quotes included.
    static func expectDescription(of page: Page, at range: Range<Int>, in written: borrowing ByteWriter) {
        var expected = ByteWriter()
        JSON.writeString(page.description, into: &expected)
        let got = written.withBytes { Array($0[range]) }
        let want = expected.finish()
        #expect(got == want)
    }

    /// A page without arguments writes its id twice (as `id` and as `description`) from the id's two parts; odd
    /// parts (a page decoded loosely from a client's JSON) are escaped the same as the tree escapes the joined id.
    @Test(arguments: ["home", "a \"quoted\" case", "back\\slash", "line\nbreak", "é€😀"])
    func writtenPageWithoutArgumentsIsTheTreeSerialized(name: String) {
        let page = Page(id: PageID(coordinator: "app\t", name: name))
        var written = ByteWriter()
        written.append("[")  // not at the writer's start
        let description = page.writeJSON(into: &written)
        Self.expectDescription(of: page, at: description, in: written)
        written.truncate(to: 0)
        page.writeJSON(into: &written)
        #expect(written.finish() == JSONText(page.json).bytes)
    }
}
