import JSON
import Testing

/// A tape's keys and a tree's keys answer the same length, first word and byte comparisons for the same text.
@Suite struct JSONKeyViewTests {
    /// Keys of every length around the eight-byte word and the fifteen-byte inline string, non-ASCII keys, and keys
    /// whose bytes end in zeros of the word.
    static let keys: [String] =
        (0...20).map { String(String("abcdefghijklmnopqrstuvwxyz".prefix($0))) } + [
            "interruption-level", "a-b_c", "clé", "ключ", "日本語のキー", "😀", "x😀y", "é", "thread-id",
        ]

    /// Keys a writer escapes (a tape leaves them to the tree), whose zero bytes the first word cannot tell from its
    /// padding.
    static let controlKeys = ["abcdefgh\u{0}", "\u{0}", "a\u{0}b", "a\tb"]

    /// The first eight bytes of `text`'s UTF-8 as a little-endian word, zeros after its end.
    static func prefix(_ text: String) -> UInt64 {
        var word: UInt64 = 0
        for (i, b) in text.utf8.prefix(8).enumerated() { word |= UInt64(b) << (8 * UInt64(i)) }
        return word
    }

    /// Checks `key` against the text `expected`: its length, first word, string, and byte comparisons with its own
    /// bytes and with near misses (one byte shorter, one longer, the last byte changed).
    static func check(_ key: some JSONKeyView, is expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let bytes = Array(expected.utf8)
        #expect(key.utf8Count == bytes.count, sourceLocation: sourceLocation)
        #expect(key.utf8Prefix == prefix(expected), sourceLocation: sourceLocation)
        #expect(key.string == expected, sourceLocation: sourceLocation)
        var nearMisses = [bytes + [UInt8(ascii: "x")], bytes + [0]]
        if !bytes.isEmpty {
            nearMisses.append(Array(bytes.dropLast()))
            nearMisses.append(Array(bytes.dropLast()) + [bytes[bytes.count - 1] ^ 0x01])
            nearMisses.append([bytes[0] ^ 0x20] + Array(bytes.dropFirst()))
        }
        bytes.withUnsafeBufferPointer { #expect(key.hasUTF8($0), sourceLocation: sourceLocation) }
        for miss in nearMisses {
            miss.withUnsafeBufferPointer { #expect(!key.hasUTF8($0), "\(miss)", sourceLocation: sourceLocation) }
        }
    }

    /// A document whose members are `keys` in order, each with its index as value, written with `padding` spaces
    /// after the closing brace (which moves the end of the bytes the tape may read a key's word from).
    static func document(_ keys: [String], padding: Int = 0) -> [UInt8] {
        var object = JSONObject()
        for (i, key) in keys.enumerated() { object[key] = .int(i) }
        return Array(JSON.object(object).serialized.utf8) + Array(repeating: UInt8(ascii: " "), count: padding)
    }

    @Test func tapeAndTreeKeysAnswerForTheirText() throws {
        let bytes = Self.document(Self.keys)
        let tree = try JSON.parse(bytes)
        var treeKeys: [String] = []
        for (key, value) in tree.keyedMembers {
            Self.check(key, is: key.string)
            #expect(value == tree[key.string])
            treeKeys.append(key.string)
        }
        #expect(treeKeys == Self.keys)

        var tape = JSONTape()
        try bytes.withUnsafeBytes { raw in
            let parsed = tape.parse(raw)
            try #require(parsed)
            tape.withRoot(raw) { root in
                var tapeKeys: [String] = []
                for (key, value) in root.keyedMembers {
                    Self.check(key, is: key.string)
                    #expect(Array(key.utf8) == Array(key.string.utf8))
                    #expect(value.json == tree[key.string])
                    tapeKeys.append(key.string)
                }
                #expect(tapeKeys == Self.keys)
                #expect(root.keyedMembers.map { $0.key.string } == root.members.map { $0.key })
            }
        }
    }

    @Test(arguments: 0...9)
    func aTapesKeyNearTheEndOfTheBytesHasItsWord(padding: Int) throws {
        for key in ["", "a", "ab", "abcdefg", "abcdefgh", "abcdefghi"] {
            let bytes = Self.document([key], padding: padding)
            var tape = JSONTape()
            try bytes.withUnsafeBytes { raw in
                let parsed = tape.parse(raw)
                try #require(parsed)
                tape.withRoot(raw) { root in
                    let members = Array(root.keyedMembers)
                    #expect(members.count == 1)
                    if let member = members.first { Self.check(member.key, is: key) }
                }
            }
        }
    }

    @Test(arguments: keys + controlKeys)
    func aTreeKeyAnswersForItsString(text: String) {
        Self.check(JSONObject.MemberKey(text), is: text)
        // A string built at run time, not a literal: the same answers from a native string's storage.
        let built = String(decoding: Array(text.utf8), as: UTF8.self)
        Self.check(JSONObject.MemberKey(built), is: text)
    }

    @Test func escapedKeysAreReadDecodedFromTheTree() throws {
        let bytes = Array(#"{"a\"b": 1, "\u00e9t\u00e9": 2, "thread\u002did": 3}"#.utf8)
        var tape = JSONTape()
        let parsed = bytes.withUnsafeBytes { tape.parse($0) }
        #expect(!parsed, "the tape leaves escaped keys to the tree")
        let tree = try JSON.parse(bytes)
        let keys = tree.keyedMembers.map { $0.key }
        #expect(keys.map(\.string) == [#"a"b"#, "été", "thread-id"])
        for key in keys { Self.check(key, is: key.string) }
    }

    @Test func keysWithControlBytesAreReadFromTheTree() throws {
        let bytes = Self.document(Self.controlKeys)
        var tape = JSONTape()
        let parsed = bytes.withUnsafeBytes { tape.parse($0) }
        #expect(!parsed, "the writer escapes them: the tape leaves them to the tree")
        let keys = try JSON.parse(bytes).keyedMembers.map { $0.key }
        #expect(keys.map(\.string) == Self.controlKeys)
        for key in keys { Self.check(key, is: key.string) }
    }

    @Test func valuesOtherThanObjectsHaveNoKeyedMembers() throws {
        for text in ["[1, 2]", #""s""#, "1", "null", "{}"] {
            let bytes = Array(text.utf8)
            #expect(try JSON.parse(bytes).keyedMembers.map { $0.key.string }.isEmpty)
            var tape = JSONTape()
            bytes.withUnsafeBytes { raw in
                let parsed = tape.parse(raw)
                #expect(parsed)
                tape.withRoot(raw) { root in #expect(Array(root.keyedMembers).isEmpty) }
            }
        }
    }
}
