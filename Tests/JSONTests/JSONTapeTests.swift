import Foundation
import JSON
import Testing

/// The tape reads what the tree parser reads, with the same values, or leaves the document to it.
@Suite struct JSONTapeTests {
    /// Parses `text` both ways and checks that they agree; answers whether the tape took it.
    @discardableResult
    static func agree(
        _ bytes: [UInt8], maxDepth: Int = JSON.defaultMaxDepth, sourceLocation: SourceLocation = #_sourceLocation
    )
        -> Bool
    {
        var tape = JSONTape()
        let tree = try? JSON.parse(bytes, maxDepth: maxDepth)
        return bytes.withUnsafeBytes { raw in
            guard tape.parse(raw, maxDepth: maxDepth) else { return false }
            guard let tree else {
                Issue.record("the tape took a document the tree parser rejects", sourceLocation: sourceLocation)
                return true
            }
            tape.withRoot(raw) { root in #expect(root.json == tree, sourceLocation: sourceLocation) }
            return true
        }
    }

    /// Reads `text` into `tape`, which must take it, and calls `body` with its root.
    static func read(_ text: String, into tape: inout JSONTape, _ body: (JSONTape.Value) -> Void) throws {
        let bytes = Array(text.utf8)
        try bytes.withUnsafeBytes { raw in
            let parsed = tape.parse(raw)
            try #require(parsed, "\(text)")
            tape.withRoot(raw, body)
        }
    }

    static let documents = [
        #"{"b": 1, "a": [true, false, null], "c": {"d": "e"}}"#,
        " \t\r\n{ \"a\" :\n[ 1 , 2 ] } \n", "[ ]", "{ }", "0", "-0", "-1", "1.5", "-2.25e-3", "1E10", "3e400",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
        "18446744073709551616", #""""#, #""plain""#, #""h\u00e9llo \ud83d\ude00 \"q\" \\ \/ \n""#, "\"héllo ✓ 😀\"",
        #"{"aps":{"alert":{"title":"Summer sale","body":"30% off"},"badge":1,"relevance-score":0.8},"deeplink":"shop://offers/SUMMER"}"#,
        #"{"message":{"data":{"deeplink":"shop://cart/checkout"},"android":{"ttl":"3600s"}}}"#,
        #"[[[[]]],{},{"":""},[1,[2,[3]]]]"#, #"{"a":{"a":{"a":1}},"b":[{"a":2},{"a":3}]}"#,
        #"{"k\u0061y": 1}"#, #"{"a": 1, "a": 2}"#, #"{"a": 1, "\u0061": 2}"#, "{\"a\": \"x\u{01}\"}",
        "[1,]", "{\"a\" 1}", "{\"a\":1,}", "[1 2]", "01", "1.", "1e", "-", "tru", "nul", "\"\\x\"", "\"\\ud800\"",
        "\"abc", "{", "[", "", "   ", "1 2", "[]x", "\"\u{7F}\"",
        "{\"longer key than eight\":1,\"longer key than eight\":2}",
        "{\"longer key than eight\":1,\"longer key than nine\":2}",
    ]

    @Test(arguments: documents)
    func theTapeAgreesWithTheTreeParser(_ text: String) {
        Self.agree(Array(text.utf8))
    }

    @Test func invalidUTF8IsLeftToTheTreeParser() {
        for bytes: [UInt8] in [[0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0xFF]] {
            #expect(!Self.agree(bytes))
        }
        #expect(Self.agree([0x22, 0xC3, 0xA9, 0x22]))
    }

    @Test func everyDocumentTheTapeLeavesAloneIsOneItHasAReasonTo() {
        // Escaped keys, more than 32 keys, nesting over the bound: the tree parser reads them.
        #expect(!Self.agree(Array(#"{"k\u0061y": 1}"#.utf8)))
        let many = "{" + (0..<33).map { "\"k\($0)\": \($0)" }.joined(separator: ",") + "}"
        #expect(!Self.agree(Array(many.utf8)))
        let enough = "{" + (0..<32).map { "\"k\($0)\": \($0)" }.joined(separator: ",") + "}"
        #expect(Self.agree(Array(enough.utf8)))
        #expect(!Self.agree(Array("[[[1]]]".utf8), maxDepth: 2))
        #expect(Self.agree(Array("[[1]]".utf8), maxDepth: 2))
        // And it takes the ordinary documents.
        for text in Self.documents.prefix(24) where text != "3e400" { #expect(Self.agree(Array(text.utf8)), "\(text)") }
    }

    @Test func aDuplicateKeyIsFoundWhereverItIs() {
        // Keys that share their first eight bytes, keys that differ in length only, and short ones: each object of
        // up to 32 distinct keys is taken, and the same object with any key repeated at any later place is left
        // to the tree parser, which rejects it.
        let keys = (0..<32).map { i in
            switch i % 4 {
            case 0: "shared prefix \(i)"
            case 1: "k\(i)"
            case 2: String(repeating: "x", count: i)
            default: "shared prefix \(i) and more"
            }
        }
        for count in 1...keys.count {
            let distinct = keys.prefix(count).enumerated().map { "\"\($1)\":\($0)" }
            #expect(Self.agree(Array(("{" + distinct.joined(separator: ",") + "}").utf8)), "\(count) keys")
            guard count < keys.count else { continue }
            for repeated in 0..<count {
                let members = distinct + ["\"\(keys[repeated])\":null"]
                let text = "{" + members.joined(separator: ",") + "}"
                #expect(!Self.agree(Array(text.utf8)), "\(text)")
                #expect(throws: JSONError.self) { try JSON.parse(Array(text.utf8)) }
            }
        }
    }

    @Test func shortKeysAreReadFromTheirFirstSixteenBytes() throws {
        // Keys of 0 to 17 bytes, ASCII or not, plain or escaped, with a space before the colon or none, each with
        // enough of the document after it for sixteen bytes to be read from its start (the way most keys are read):
        // the tape takes what the tree parser takes, finds each key by its bytes, and leaves a repeated one to
        // the tree parser, which rejects it.
        for n in 0..<18 {
            let plain = String("abcdefghijklmnopqr".prefix(n))
            let keys: [(text: String, decoded: String)] = [
                (plain, plain), ("é" + plain, "é" + plain), (plain + "é", plain + "é"),
                (plain + "\\u0041", plain + "A"),
                (plain + "\\n", plain + "\n"),
            ]
            for key in keys {
                for space in ["", " ", "\n\t"] {
                    let text = "{\"\(key.text)\"\(space):1,\"a padding key\":[true,false]}"
                    let taken = Self.agree(Array(text.utf8))
                    #expect(taken == (key.text == key.decoded), "\(text)")  // escaped keys are left to the tree
                    if taken {
                        var tape = JSONTape()
                        try Self.read(text, into: &tape) { root in
                            #expect(root[key.decoded]?.json == .int(1), "\(text)")
                            #expect(root[key.decoded + "x"] == nil, "\(text)")
                        }
                    }
                    let repeated = "{\"\(key.text)\"\(space):1,\"\(key.text)\":2,\"a padding key\":0}"
                    #expect(!Self.agree(Array(repeated.utf8)), "\(repeated)")
                }
            }
            // A key with a byte that is not UTF-8 is left to the tree parser, which rejects it.
            let invalid = Array("{\"\(plain)".utf8) + [0xFF] + Array("\":1,\"a padding key\":0}".utf8)
            #expect(!Self.agree(invalid), "\(plain) and 0xFF")
        }
    }

    @Test func aSpecialByteIsSeenAtEveryOffsetOfAStringOrAKey() {
        // Strings and keys are looked at sixteen bytes, then eight, then one at a time: a control character, a quote
        // or backslash (escaped or bare), DEL or a byte that is not ASCII, at each offset up to 40 of a value or a
        // key, is read as the tree parser reads it, and the document is taken (by the tape or the tree parser)
        // exactly when Foundation's parser, which shares none of their code, takes it.
        func check(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
            let taken = Self.agree(bytes, sourceLocation: sourceLocation) || (try? JSON.parse(bytes)) != nil
            let valid = (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil
            #expect(
                taken == valid, "\(String(decoding: bytes, as: UTF8.self).debugDescription)",
                sourceLocation: sourceLocation)
        }
        let specials: [[UInt8]] = [
            [0x00], [0x1F], [0x20], [0x5C, 0x22], [0x5C, 0x5C], [0x5C, 0x6E], [0x22], [0x5C], [0x7F], [0xC3, 0xA9],
            [0xFF], [0xE2, 0x9C, 0x93],
        ]
        for special in specials {
            for offset in 0...40 {
                let text = Array(repeating: UInt8(ascii: "a"), count: offset) + special + Array("bcd".utf8)
                let quoted = [UInt8(ascii: "\"")] + text + [UInt8(ascii: "\"")]
                let padding = Array(#","padding":"0123456789abcdef0123456789"}"#.utf8)
                check(Array(#"{"key":"#.utf8) + quoted + padding)
                check([UInt8(ascii: "{")] + quoted + [UInt8(ascii: ":")] + Array("1".utf8) + padding)
                check([UInt8(ascii: "[")] + quoted + [UInt8(ascii: "]")])
            }
        }
    }

    @Test(arguments: 0..<8)
    func mutatedDocumentsAgree(seed: Int) {
        for bytes in Self.mutated(Self.documents.prefix(25).map { Array($0.utf8) }, seed: seed, count: 400) {
            Self.agree(bytes)
        }
    }

    /// `count` documents, each one of `samples` with one to three bytes replaced, removed or inserted (bytes of JSON's
    /// punctuation, escapes, numbers, NUL and non-ASCII), chosen by a generator seeded with `seed`.
    static func mutated(_ samples: [[UInt8]], seed: Int, count: Int) -> [[UInt8]] {
        var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 | 1
        func generator() -> UInt64 {  // xorshift64
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        let alphabet = Array(#"{}[]":,\ u0aeE.-+1\#u{0}"#.utf8) + [0x09, 0x0A, 0xC3, 0xA9, 0xED, 0xFF]
        return (0..<count).map { _ in
            var bytes = samples[Int(generator() % UInt64(samples.count))]
            for _ in 0..<(1 + generator() % 3) where !bytes.isEmpty {
                let at = Int(generator() % UInt64(bytes.count))
                switch generator() % 3 {
                case 0: bytes[at] = alphabet[Int(generator() % UInt64(alphabet.count))]
                case 1: bytes.remove(at: at)
                default: bytes.insert(alphabet[Int(generator() % UInt64(alphabet.count))], at: at)
                }
            }
            return bytes
        }
    }

    @Test func valuesReadWithoutATree() throws {
        let text = #"{"method":"io.x.Y.Z","n":-3,"d":2.5,"t":true,"z":null,"s":"a\"b","list":["x",1],"o":{"k":"v"}}"#
        var tape = JSONTape()
        try Self.read(text, into: &tape) { root in
            #expect(root.isObject)
            #expect(root.members.map(\.key) == ["method", "n", "d", "t", "z", "s", "list", "o"])
            #expect(root["method"]?.isString("io.x.Y.Z") == true)
            #expect(root["method"]?.isString("io.x.Y") == false)
            #expect(root["n"]?.intValue == -3)
            #expect(root["d"]?.numberValue == 2.5)
            #expect(root["d"]?.intValue == nil)
            #expect(root["t"]?.boolValue == true)
            #expect(root["z"]?.isNull == true)
            #expect(root["s"]?.stringValue == "a\"b")
            #expect(root["s"]?.isString("a\"b") == false)  // escaped text is not compared raw
            #expect(root["list"]?.elements?.map(\.kindName) == ["string", "number"])
            #expect(root["o"]?["k"]?.stringValue == "v")
            #expect(root["missing"] == nil)
            #expect(root["n"]?["k"] == nil)
            #expect(root["o"]?.elements == nil)
        }
    }

    @Test func keysAreFoundByTheirWholeBytes() throws {
        let text = #"{"interruption-level":1,"interruption-levels":2,"interrupt":3,"":4}"#
        var tape = JSONTape()
        try Self.read(text, into: &tape) { root in
            #expect(root["interruption-level"]?.intValue == 1)
            #expect(root["interruption-levels"]?.intValue == 2)
            #expect(root["interrupt"]?.intValue == 3)
            #expect(root[""]?.intValue == 4)
            #expect(root["interruption-leve"] == nil)
            #expect(root["interruption-levelX"] == nil)
        }
    }

    @Test func aTapeIsReusedForTheNextDocument() throws {
        var tape = JSONTape()
        for text in [#"{"a":[1,2,3],"b":"long enough to need a heap string"}"#, #"{"a":"x"}"#, "[true]"] {
            try Self.read(text, into: &tape) { root in #expect(root.json == (try? JSON.parse(text))) }
        }
    }

    /// Numbers read on the tape itself (short integers, fractions converted only when read) and those handed to the
    /// tree parser's reading (long integers, exponents, huge integer parts) give the tree's values, and the same
    /// errors.
    @Test func numbersAgreeAtTheEdgesOfEachWayOfReadingThem() {
        let nines = { (n: Int) in String(repeating: "9", count: n) }
        var numbers = [
            "0.8", "-0.5", "0.0", "-0.0", "10.25", "1.5E3", "1.5e-3", "2E+2", "123456789012345678",
            "-123456789012345678", "1234567890123456789", "-1234567890123456789", "12345678901234567890",
            nines(18), nines(19), "-" + nines(18), "-" + nines(19), nines(18) + ".5", nines(19) + ".5",
            "1" + String(repeating: "0", count: 307) + ".5", nines(308) + ".9", nines(309) + ".9",
            "0." + String(repeating: "0", count: 400) + "1", "1." + nines(40),
            "00.5", "-01", "01.5", "1.e3", "-.5", ".5", "0e", "1.0e+", "1.5.2", "1.5e3.2", "-", "--1", "1-",
        ]
        numbers += numbers.map { "[\($0),1]" } + numbers.map { #"{"n":\#($0),"m":0.25}"# }
        for text in numbers {
            let bytes = Array(text.utf8)
            let tookIt = Self.agree(bytes)
            if (try? JSON.parse(bytes)) != nil {
                #expect(tookIt, "the tape leaves a valid number to the tree parser: \(text.prefix(40))")
            }
        }
        var tape = JSONTape()
        let values: [(String, Double)] = [("0.8", 0.8), ("-2.5", -2.5), ("12.0", 12), ("1e2", 100)]
        for (text, value) in values {
            try? Self.read(text, into: &tape) { root in
                #expect(root.numberValue == value)
                #expect(root.intValue == (value == value.rounded() ? Int(value) : nil))
            }
        }
    }

    /// A tape grows when a document has more nodes than it has room for, and reads the document again from its
    /// start: every size reads whole, on a fresh tape and on one reused after smaller and larger documents.
    @Test func aTapeGrowsForDocumentsWithMoreNodes() throws {
        func integers(_ n: Int) -> String { "[" + (0..<n).map { _ in "1" }.joined(separator: ",") + "]" }
        func objects(_ n: Int) -> String {
            "[" + (0..<n).map { #"{"k\#($0 % 7)":[\#($0),"s"],"e":{}}"# }.joined(separator: ",") + "]"
        }
        let sizes = [0, 1, 2, 200, 255, 256, 257, 1_000, 4_095, 20_000, 3]
        var reused = JSONTape()
        var small = JSONTape(capacity: 1)
        func check(_ tape: inout JSONTape, _ text: String, _ tree: JSON) throws {
            let bytes = Array(text.utf8)
            try bytes.withUnsafeBytes { raw in
                let parsed = tape.parse(raw)
                try #require(parsed, "\(text.prefix(40))")
                #expect(tape.nodeCount == tape.withRoot(raw) { Self.nodes(of: $0) })
                tape.withRoot(raw) { root in #expect(root.json == tree) }
            }
        }
        for n in sizes {
            for text in [integers(n), objects(n / 4)] {
                let tree = try JSON.parse(text)
                var fresh = JSONTape()
                try check(&fresh, text, tree)
                try check(&reused, text, tree)
                try check(&small, text, tree)
            }
        }
        #expect(reused.capacity >= 20_001)
    }

    /// A copy of a tape shares its nodes until one of them parses again: the other keeps its document.
    @Test func aCopyKeepsItsDocumentWhenTheOriginalParsesAnother() throws {
        let first = Array(#"{"a":[1,2,3],"b":{"c":"d"}}"#.utf8)
        let second = Array(("[" + (0..<300).map { "\"s\($0)\"" }.joined(separator: ",") + "]").utf8)
        var tape = JSONTape()
        #expect(first.withUnsafeBytes { tape.parse($0) })
        let copy = tape
        #expect(second.withUnsafeBytes { tape.parse($0) })
        let firstTree = try JSON.parse(first)
        let secondTree = try JSON.parse(second)
        first.withUnsafeBytes { raw in copy.withRoot(raw) { root in #expect(root.json == firstTree) } }
        second.withUnsafeBytes { raw in tape.withRoot(raw) { root in #expect(root.json == secondTree) } }
        #expect(copy.nodeCount == 10)
        #expect(tape.nodeCount == 301)
    }

    /// The number of nodes under `value`, itself included, counted by walking its elements and members.
    static func nodes(of value: JSONTape.Value) -> Int {
        if let elements = value.elements { return 1 + elements.reduce(0) { $0 + nodes(of: $1) } }
        if value.isObject { return 1 + value.rawMembers.reduce(0) { $0 + 1 + nodes(of: $1.value) } }
        return 1
    }
}
