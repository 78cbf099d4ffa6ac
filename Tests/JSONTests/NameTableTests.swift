import JSON
import Testing

/// A ``NameTable`` answers what a dictionary of the same entries answers, whichever way it looks a name up.
@Suite struct NameTableTests {
    /// Every name of the table, and names it lacks, looked up in the table and in its dictionary.
    static func agrees(_ entries: [String: Int], queries: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let table = NameTable(entries)
        for name in Array(entries.keys) + queries {
            #expect(table[name] == entries[name], "\(name)", sourceLocation: sourceLocation)
        }
        #expect(table.isEmpty == entries.isEmpty, sourceLocation: sourceLocation)
    }

    @Test func asciiNamesAreFoundByTheirBytes() {
        // Names that differ in one byte, in length only, around the eight bytes read as one word.
        var entries: [String: Int] = [:]
        for (i, name) in ["a", "ab", "abc", "CART_REMINDER", "CART_REMINDEr", "loggedIn", "123456789012345", "b"]
            .enumerated()
        {
            entries[name] = i * 7
        }
        Self.agrees(
            entries,
            queries: ["", "A", "abcd", "CART_REMINDE", "CART_REMINDERS", "loggedin", "12345678901234", "c", "é"])
    }

    @Test func aTableWithANonASCIINameLooksUpItsDictionary() {
        let entries = ["ORDER_SHIPPED_WITH_TRACKING": 1, "café": 2, "short": 3]
        Self.agrees(entries, queries: ["ORDER_SHIPPED_WITH_TRACKIN", "cafe", "shor", "shorts"])
    }

    @Test func longNamesAndQueries() {
        // Names over 16 bytes are left to the dictionary; a long query against a table of short names is absent.
        Self.agrees(
            ["checkout": 1, "ORDER_SHIPPED_WITH_TRACKING": 3, "ORDER_SHIPPED_WITH_TRACKINH": 4],
            queries: ["ORDER_SHIPPED_WITH_TRACKIN", "ORDER_SHIPPED_WITH_TRACKINGS", "checkou"])
        Self.agrees(["checkout": 1, "login": 2], queries: ["checkout-and-more-than-15", "loginloginloginlogin"])
    }

    @Test func nonASCIIQueriesAreComparedAsStringsAre() {
        // "\u{212A}", the Kelvin sign, is "K" as a String; "e\u{301}" is "\u{E9}".
        Self.agrees(["K": 1, "cart": 2], queries: ["\u{212A}", "k", "c\u{61}rt", "ca\u{301}rt"])
        Self.agrees(["\u{E9}": 1, "cart": 2], queries: ["e\u{301}", "e", "\u{E9}"])
    }

    @Test func anEmptyTableHasNothing() {
        Self.agrees([:], queries: ["", "anything", "a much longer name than fifteen bytes"])
    }

    @Test func manyNamesProbeThePastCollisions() {
        var entries: [String: Int] = [:]
        for i in 0..<1_000 { entries["category\(i)"] = i }
        Self.agrees(entries, queries: (1_000..<1_100).map { "category\($0)" } + ["category", "category-1"])
    }
}
