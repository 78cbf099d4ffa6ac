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

    @Test func shortNamesAreFoundByTheirWords() {
        // Names that differ in one byte, in length only, at either end of the 15 bytes an inline string holds.
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

    @Test func aTableWithALongOrNonASCIINameLooksUpItsDictionary() {
        let entries = ["ORDER_SHIPPED_WITH_TRACKING": 1, "café": 2, "short": 3]
        Self.agrees(entries, queries: ["ORDER_SHIPPED_WITH_TRACKIN", "cafe", "shor", "shorts"])
    }

    @Test func longQueriesAgainstAShortTable() {
        // The table is indexed by words; a query too long to be inline is looked up in the dictionary (and is absent).
        Self.agrees(["checkout": 1, "login": 2], queries: ["checkout-and-more-than-15", "loginloginloginlogin"])
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
