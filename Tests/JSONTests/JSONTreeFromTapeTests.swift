import Testing

@testable import JSON

/// `JSON.parse` reads with the tape and builds the tree from its nodes. Each case's outcome below was recorded from
/// the recursive-descent tree parser the tape replaced, so that the tree, and each error's code, offset and reason,
/// stay what they were: escapes and surrogate pairs, numbers at and past the integer range, keys equal only once
/// decoded (`"\u0061"` and `"a"`, canonically equivalent non-ASCII keys) in small and large objects, nesting at and
/// past the bound, invalid UTF-8 before and after an escape, trailing data, truncation at every kind of token.
@Suite struct JSONTreeFromTapeTests {
    enum Outcome: Equatable, CustomStringConvertible {
        /// The tree, serialized.
        case tree(String)
        /// A tree too long to show: its serialization's length and FNV-1a hash.
        case longTree(bytes: Int, fnv: UInt64)
        case error(JSONError.Code, Int, String)

        var description: String {
            switch self {
            case .tree(let text): "tree \(text)"
            case .longTree(let bytes, let fnv): "tree of \(bytes) bytes, FNV-1a \(fnv)"
            case .error(let code, let offset, let reason): "\(code) at \(offset): \(reason)"
            }
        }
    }

    static let inputs: [[UInt8]] = {
        var t: [String] = [
            #"{"a":1,"b":[true,false,null],"c":{"d":"e\n\u00e9\ud83d\ude00"},"é":-0.5e3}"#,
            #"[1,-0,0.25,1e10,12345678901234567890,-9223372036854775808,9223372036854775807,9223372036854775808]"#,
            #"[-9223372036854775809, 1E+2, 2e-3, 1.0e-400, 0.1, 123456789012345678, 1234567890123456789]"#,
            #"{"aps":{"alert":{"title":"Hi","body":"Sale — 20% off"},"badge":3},"link":"shop://offers/SUMMER"}"#,
            #"{"k":"v","k2":"\"q\"\\\/\b\f\r\t","kk":[[[[{}]]]],"x":[{},[],"",0]}"#,
            "  [ 1 , 2 ,\n\t3 ]  ",
            #"{"\u0061":1,"b\nc":2,"\ud83d\ude00":3}"#,
            #"{"a": 1, "\u0061": 2}"#,
            #"{"x":1,"é":1,"\u00e9":2}"#,
            "{\"e\u{301}\":1,\"\u{e9}\":2}",
            "{\"a\u{301}\u{316}\":1,\"a\u{316}\u{301}\":2}",
            "{" + (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}",
            "{" + (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + ",\"k7\":0}",
            "{" + (0..<20).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + ",\"k\\u0037\":0}",
            "{" + (0..<20).map { "\"é\($0)\":\($0)" }.joined(separator: ",") + ",\"é7\":0}",
            String(repeating: "[", count: 64) + String(repeating: "]", count: 64),
            String(repeating: "[", count: 65) + String(repeating: "]", count: 65),
            String(repeating: "{\"a\":", count: 64) + "1" + String(repeating: "}", count: 64),
            "[\"0123456789abcdef\\n0123456789abcdef\\u00e9 0123456789abcdef\", \"x\\ud834\\udd1e0123456789abcdef\"]",
            #"{"a":1}x"#, #"[1,2] ,"#, #"{"a":[1,2}"#, #"{"a" "b"}"#, #"{"a":}"#, #"["\ud800"]"#, #"["\udc00"]"#,
            #"["\ud800\u0041"]"#, #"["\u00G0"]"#, #"["\q"]"#, "[\"a\u{1}\"]", #"[01]"#, #"[1.]"#, #"[1e]"#, #"[-]"#,
            #"[1e999]"#, "[tru]", "[nulx]", "", " ", "{", "[", "\"", "{\"a\"", "[1,", "{\"a\":1,", "\"\\", "\"\\u12",
            #"{"a":1,"b":2,"a":3}"#, "[\u{FEFF}1]", "\u{FEFF}[1]", "{\"a\":1,}", "[1,]", "[,1]", "{,}",
        ]
        t.append(String(repeating: "[", count: 10_000))
        var cases = t.map { Array($0.utf8) }
        cases += [
            [0x22, 0x61, 0xFF, 0x22], [0x22, 0xC3, 0x28, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22],
            [0x7B, 0x22, 0xFE, 0x22, 0x3A, 0x31, 0x7D], [0x5B, 0x22, 0x5C, 0x6E, 0xF4, 0x90, 0x80, 0x80, 0x22, 0x5D],
            [0x5B, 0x22, 0x5C, 0x71, 0xFF, 0x22, 0x5D], [0x5B, 0x22, 0xFF, 0x5C, 0x71, 0x22, 0x5D],
        ]
        return cases
    }()

    static let recorded: [Outcome] = [
        .tree("{\"a\":1,\"b\":[true,false,null],\"c\":{\"d\":\"e\\né😀\"},\"é\":-500.0}"),
        .longTree(bytes: 110, fnv: 0x3DE868475C25F810),
        .longTree(bytes: 83, fnv: 0xB401962A4444827A),
        .longTree(bytes: 98, fnv: 0x6AA7787B53C63D90),
        .longTree(bytes: 74, fnv: 0x6050679C17E0C122),
        .tree("[1,2,3]"),
        .tree("{\"a\":1,\"b\\nc\":2,\"😀\":3}"),
        .error(.duplicateKey, 9, "duplicate key \"a\""),
        .error(.duplicateKey, 14, "duplicate key \"é\""),
        .tree("{\"é\":1,\"é\":2}"),
        .error(.duplicateKey, 11, "duplicate key \"á̖\""),
        .longTree(bytes: 341, fnv: 0x095009DD222E52CF),
        .error(.duplicateKey, 341, "duplicate key \"k7\""),
        .error(.duplicateKey, 161, "duplicate key \"k7\""),
        .error(.duplicateKey, 181, "duplicate key \"é7\""),
        .longTree(bytes: 128, fnv: 0x95D22992782E7EA5),
        .error(.tooDeep, 64, "nesting deeper than 64 levels"),
        .longTree(bytes: 385, fnv: 0xB01380FBE8A2CABC),
        .longTree(bytes: 81, fnv: 0x256236CC17EB3A52),
        .error(.trailingData, 7, "expected the end of the document"),
        .error(.trailingData, 6, "expected the end of the document"),
        .error(.unexpectedCharacter, 9, "expected ',' or ']' in an array"),
        .error(.unexpectedCharacter, 5, "expected ':' after a key"),
        .error(.unexpectedCharacter, 5, "expected a value (object, array, string, number, true, false, null)"),
        .error(.invalidEscape, 8, "a high surrogate must be followed by a low surrogate"),
        .error(.invalidEscape, 8, "a lone low surrogate"),
        .error(.invalidEscape, 14, "a high surrogate must be followed by a low surrogate"),
        .error(.invalidEscape, 6, "expected four hex digits after \\u"),
        .error(.invalidEscape, 3, "unknown escape '\\q'"),
        .error(.controlCharacterInString, 3, "control character in a string must be escaped"),
        .error(.invalidNumber, 1, "leading zeros are not allowed"),
        .error(.invalidNumber, 3, "expected a digit after '.'"),
        .error(.invalidNumber, 3, "expected a digit in the exponent"),
        .error(.invalidNumber, 2, "expected a digit"),
        .error(.invalidNumber, 6, "number out of range"),
        .error(.invalidLiteral, 1, "expected 'true'"),
        .error(.invalidLiteral, 1, "expected 'null'"),
        .error(.unexpectedEnd, 0, "expected a value, found the end of input"),
        .error(.unexpectedEnd, 1, "expected a value, found the end of input"),
        .error(.unexpectedEnd, 1, "expected a key in an object"),
        .error(.unexpectedEnd, 1, "expected a value, found the end of input"),
        .error(.unexpectedEnd, 1, "unterminated string"),
        .error(.unexpectedEnd, 4, "expected ':' after a key"),
        .error(.unexpectedEnd, 3, "expected a value, found the end of input"),
        .error(.unexpectedEnd, 7, "expected a key in an object"),
        .error(.unexpectedEnd, 2, "unterminated escape"),
        .error(.unexpectedEnd, 3, "expected four hex digits after \\u"),
        .error(.duplicateKey, 13, "duplicate key \"a\""),
        .error(.unexpectedCharacter, 1, "expected a value (object, array, string, number, true, false, null)"),
        .error(.unexpectedCharacter, 0, "expected a value (object, array, string, number, true, false, null)"),
        .error(.unexpectedCharacter, 7, "expected a string key"),
        .error(.unexpectedCharacter, 3, "expected a value (object, array, string, number, true, false, null)"),
        .error(.unexpectedCharacter, 1, "expected a value (object, array, string, number, true, false, null)"),
        .error(.unexpectedCharacter, 1, "expected a string key"),
        .error(.tooDeep, 64, "nesting deeper than 64 levels"),
        .error(.invalidUTF8, 2, "invalid UTF-8 byte in a string"),
        .error(.invalidUTF8, 1, "invalid UTF-8 sequence in a string"),
        .error(.invalidUTF8, 1, "invalid UTF-8 sequence in a string"),
        .error(.invalidUTF8, 2, "invalid UTF-8 byte in a string"),
        .error(.invalidUTF8, 4, "invalid UTF-8 sequence in a string"),
        .error(.invalidEscape, 3, "unknown escape '\\q'"),
        .error(.invalidEscape, 4, "unknown escape '\\q'"),
    ]

    static func outcome(_ bytes: [UInt8]) -> Outcome {
        do throws(JSONError) {
            let text = try JSON.parse(bytes).serialized
            let utf8 = Array(text.utf8)
            guard utf8.count > 70 else { return .tree(text) }
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            for byte in utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
            return .longTree(bytes: utf8.count, fnv: hash)
        } catch {
            return .error(error.code, error.offset, error.reason)
        }
    }

    @Test func everyCaseReadsAsTheTreeParserReadIt() {
        #expect(Self.inputs.count == Self.recorded.count)
        for (bytes, expected) in zip(Self.inputs, Self.recorded) {
            let shown = String(decoding: bytes.prefix(60), as: UTF8.self).debugDescription
            #expect(Self.outcome(bytes) == expected, "\(shown)")
        }
    }

    /// The tape's `json` (for a document it took) and `JSON.parse` build the same tree. (The tape compares keys
    /// by their bytes, so it takes two canonically equivalent keys that `JSON.parse` rejects: skipped here.)
    @Test func aTapesValueBuildsTheSameTree() throws {
        for bytes in Self.inputs {
            var tape = JSONTape()
            let took = bytes.withUnsafeBytes { tape.parse($0) }
            guard took, let tree = try? JSON.parse(bytes) else { continue }
            let fromTape = bytes.withUnsafeBytes { raw in tape.withRoot(raw) { $0.json } }
            #expect(fromTape == tree)
        }
    }

    /// A document larger than the tape's first guess of its nodes (one per eight bytes) grows the buffer.
    @Test func documentsOfManySmallValuesGrowTheTape() throws {
        let text = "[" + Array(repeating: "1", count: 5_000).joined(separator: ",") + "]"
        #expect(try JSON.parse(text).arrayValue?.count == 5_000)
        let nested = "[" + Array(repeating: "[[],{}]", count: 2_000).joined(separator: ",") + "]"
        #expect(try JSON.parse(nested).serialized == nested)
    }

    /// Objects of up to 128 keys are read by the C reader, which compares keys by their bytes; keys equal only as
    /// strings (canonically equivalent) are still found, at the offsets the tree parser named (recorded).
    @Test func largeObjectsFindRepeatsAsTheTreeParserDid() throws {
        let cases: [(String, Int, String)] = [
            ("{" + (0..<100).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + ",\"k77\":0}", 881, "k77"),
            ("{" + (0..<100).map { "\"é\($0)\":[\($0)]" }.joined(separator: ",") + ",\"e\u{301}7\":0}", 1181, "é7"),
            (
                "{" + (0..<30).map { "\"a\u{301}\u{316}\($0)\":\($0)" }.joined(separator: ",")
                    + ",\"a\u{316}\u{301}7\":0}", 371, "a\u{301}\u{316}7"
            ),
        ]
        for (text, offset, key) in cases {
            #expect(Self.outcome(Array(text.utf8)) == .error(.duplicateKey, offset, "duplicate key \"\(key)\""))
        }
        let unique = "{" + (0..<100).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}"
        #expect(try JSON.parse(unique).serialized == unique)
    }

    /// Repeated keys kept (the config reader's reading) are all on the tape, in order; the same document is an
    /// error for `JSON.parse`.
    @Test func repeatedKeysCanBeKept() throws {
        let bytes = Array(#"{"a": 1, "\u0061": 2, "a": 3}"#.utf8)
        var tape = JSONTape()
        let keys = try bytes.withUnsafeBytes { raw throws(JSONError) -> [String] in
            try tape.read(raw, keys: .kept)
            return tape.withRoot(raw) { root in root.members.map { "\($0.key)=\($0.value.intValue ?? 0)" } }
        }
        #expect(keys == ["a=1", "a=2", "a=3"])
        #expect(throws: JSONError.self) { try JSON.parse(bytes) }
    }

    /// Escaped strings decode on the tape as in the tree.
    @Test(arguments: [
        (#""a\"b\\c\/d""#, "a\"b\\c/d"), (#""\b\f\n\r\t""#, "\u{08}\u{0C}\n\r\t"),
        (#""\u0041\u00e9\u20AC""#, "Aé€"), (#""\ud83d\ude00 x""#, "😀 x"), (#""\u0000""#, "\u{0}"),
    ])
    func escapesDecodeOnTheTape(text: String, expected: String) throws {
        let bytes = Array(text.utf8)
        var tape = JSONTape()
        let decoded = try bytes.withUnsafeBytes { raw throws(JSONError) -> String? in
            try tape.read(raw)
            return tape.withRoot(raw) { $0.stringValue }
        }
        #expect(decoded == expected)
    }
}

@Suite struct TextPositionTests {
    @Test func linesAndColumnsCountCharacters() {
        let bytes = Array("ab\ncé\n\nxyz".utf8)
        #expect(TextPosition(of: 0, in: bytes) == TextPosition())
        let e = TextPosition(of: 3, in: bytes)
        #expect((e.line, e.column) == (2, 1))
        let afterAccent = TextPosition(of: 6, in: bytes)  // 'é' is two bytes, one column
        #expect((afterAccent.line, afterAccent.column) == (2, 3))
        let last = TextPosition(of: bytes.count, in: bytes)
        #expect((last.line, last.column) == (4, 4))
        var walking = TextPosition()
        bytes.withUnsafeBufferPointer { buffer in
            walking.advance(to: 3, in: buffer)
            walking.advance(to: 9, in: buffer)
        }
        #expect((walking.line, walking.column) == (4, 2))
    }
}
