import JSON
import Testing

@Suite struct JSONParserTests {
    /// Parses `text`, expecting an error, and returns it.
    func parseError(_ text: String) throws -> JSONError {
        do {
            let value = try JSON.parse(text)
            Issue.record("expected an error, parsed \(value)")
            throw ParsedUnexpectedly()
        } catch let error as JSONError {
            return error
        }
    }

    func parseError(bytes: [UInt8], maxDepth: Int = JSON.defaultMaxDepth) throws -> JSONError {
        do {
            let value = try JSON.parse(bytes, maxDepth: maxDepth)
            Issue.record("expected an error, parsed \(value)")
            throw ParsedUnexpectedly()
        } catch let error as JSONError {
            return error
        }
    }

    struct ParsedUnexpectedly: Error {}

    @Test func objectKeepsKeysInDocumentOrder() throws {
        let json = try JSON.parse(#"{"b": 1, "a": [true, false, null], "c": {"d": "e"}}"#)
        let object = try #require(json.objectValue)
        #expect(object.keys == ["b", "a", "c"])
        #expect(json["a"] == [true, false, nil])
        #expect(json["c"]?["d"] == "e")
    }

    @Test func whitespaceAroundAndInsideIsAccepted() throws {
        #expect(try JSON.parse(" \t\r\n{ \"a\" :\n[ 1 , 2 ] } \n") == ["a": [1, 2]])
        #expect(try JSON.parse("[ ]") == [])
        #expect(try JSON.parse("{ }") == .object(JSONObject()))
    }

    @Test(arguments: [
        ("0", JSON.int(0)),
        ("-0", .int(0)),
        ("42", .int(42)),
        ("-17", .int(-17)),
        ("9223372036854775807", .int(Int.max)),
        ("-9223372036854775808", .int(Int.min)),
        ("9223372036854775808", .double(9_223_372_036_854_775_808.0)),
        ("-9223372036854775809", .double(-9_223_372_036_854_775_809.0)),
        ("18446744073709551616", .double(18_446_744_073_709_551_616.0)),
        ("1.5", .double(1.5)),
        ("-0.25", .double(-0.25)),
        ("1.0", .double(1.0)),
        ("1e3", .double(1000)),
        ("1E+3", .double(1000)),
        ("25e-1", .double(2.5)),
        ("0.5e2", .double(50)),
        ("1e-300", .double(1e-300)),
    ])
    func numbersParseAsIntsWhenTheyFitElseDoubles(text: String, expected: JSON) throws {
        #expect(try JSON.parse(text) == expected)
    }

    @Test(arguments: [
        ("01", 0, "leading zeros"),
        ("-01", 1, "leading zeros"),
        ("00.5", 0, "leading zeros"),
        ("-", 1, "expected a digit"),
        ("-a", 1, "expected a digit"),
        ("1.", 2, "after '.'"),
        ("1.e5", 2, "after '.'"),
        ("1e", 2, "exponent"),
        ("1e+", 3, "exponent"),
        ("1e400", 5, "out of range"),
        ("-1e400", 6, "out of range"),
    ])
    func malformedNumbersAreInvalidNumberAtTheOffendingByte(text: String, offset: Int, reason: String) throws {
        let error = try parseError(text)
        #expect(error.code == .invalidNumber)
        #expect(error.offset == offset)
        #expect(error.reason.contains(reason))
    }

    @Test(arguments: [
        (#""plain""#, "plain"),
        (#""a\"b\\c\/d""#, "a\"b\\c/d"),
        (#""\b\f\n\r\t""#, "\u{08}\u{0C}\n\r\t"),
        (#""\u0041\u00e9\u20AC""#, "Aé€"),
        (#""\u0000""#, "\u{0}"),
        (#""\ud83d\ude00""#, "😀"),
        (#""x\uD834\uDD1Ey""#, "x𝄞y"),
        (#""héllo 😀""#, "héllo 😀"),
        (#""""#, ""),
    ])
    func stringEscapesAndSurrogatePairsDecode(text: String, expected: String) throws {
        #expect(try JSON.parse(text) == .string(expected))
    }

    @Test(arguments: [
        (#""\x""#, 2, "unknown escape"),
        (#""\u12G4""#, 5, "hex digits"),
        (#""\ud83d""#, 7, "low surrogate"),
        (#""\ud83dx""#, 7, "low surrogate"),
        (#""\ud83d\u0041""#, 13, "low surrogate"),
        (#""\ude00""#, 7, "lone low surrogate"),
    ])
    func badEscapesAreInvalidEscape(text: String, offset: Int, reason: String) throws {
        let error = try parseError(text)
        #expect(error.code == .invalidEscape)
        #expect(error.offset == offset)
        #expect(error.reason.contains(reason))
    }

    @Test(arguments: [
        ("", 0),
        ("   ", 3),
        ("[1, 2", 5),
        (#"{"a": 1"#, 7),
        (#"{"a""#, 4),
        (#"{"a":"#, 5),
        (#"{"#, 1),
        (#""abc"#, 4),
        (#""ab\"#, 4),
        (#""\u12"#, 3),
        ("tru", 0),
        ("nul", 0),
    ])
    func truncatedInputIsUnexpectedEnd(text: String, offset: Int) throws {
        let error = try parseError(text)
        #expect(error.code == .unexpectedEnd)
        #expect(error.offset == offset)
    }

    @Test(arguments: [
        ("[1 2]", 3),
        (#"{"a" 1}"#, 5),
        (#"{a: 1}"#, 1),
        (#"{"a": 1 "b": 2}"#, 8),
        ("[1,]", 3),
        (#"{"a": 1,}"#, 8),
        ("+1", 0),
        (".5", 0),
        ("'a'", 0),
        ("[\u{FEFF}]", 1),
    ])
    func unexpectedCharactersAreReportedWhereTheyAre(text: String, offset: Int) throws {
        let error = try parseError(text)
        #expect(error.code == .unexpectedCharacter)
        #expect(error.offset == offset)
    }

    @Test(arguments: ["trie", "nulL", "fals3", "tx"])
    func misspelledLiteralsAreInvalidLiteral(text: String) throws {
        let error = try parseError(text)
        #expect(error.code == .invalidLiteral)
        #expect(error.offset == 0)
    }

    @Test(arguments: [("1 2", 2), ("{} {}", 3), ("[]x", 2), ("null,", 4)])
    func dataAfterTheDocumentIsTrailingData(text: String, offset: Int) throws {
        let error = try parseError(text)
        #expect(error.code == .trailingData)
        #expect(error.offset == offset)
    }

    @Test(arguments: [("\"a\u{0A}b\"", 2), ("\"\u{09}\"", 1), ("\"ab\\n\u{01}\"", 5), ("\"\u{1F}\"", 1)])
    func rawControlCharactersInStringsAreRejected(text: String, offset: Int) throws {
        let error = try parseError(text)
        #expect(error.code == .controlCharacterInString)
        #expect(error.offset == offset)
    }

    @Test(
        arguments: [
            ([0x22, 0x61, 0xFF, 0x22], 2),  // "a<FF>"
            ([0x22, 0xC3, 0x28, 0x22], 1),  // bad continuation byte
            ([0x22, 0xC0, 0xAF, 0x22], 1),  // overlong '/'
            ([0x22, 0xED, 0xA0, 0x80, 0x22], 1),  // UTF-16 surrogate encoded in UTF-8
            ([0x22, 0x61, 0x62, 0xE2, 0x82, 0x22], 3),  // truncated by the closing quote
            ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1),  // above U+10FFFF
            ([0x22, 0x5C, 0x6E, 0x80, 0x22], 3),  // after an escape: stray continuation byte
            ([0x7B, 0x22, 0xFE, 0x22, 0x3A, 0x31, 0x7D], 2),  // in a key
        ] as [([UInt8], Int)])
    func invalidUTF8InStringsIsReportedAtTheBadByte(bytes: [UInt8], offset: Int) throws {
        let error = try parseError(bytes: bytes)
        #expect(error.code == .invalidUTF8)
        #expect(error.offset == offset)
    }

    @Test(arguments: 0..<20)
    func specialBytesAreFoundAtEveryPositionOfALongString(position: Int) throws {
        let plain = Array("abcdefghijklmnopqrstuvwxyz".utf8)
        func text(_ insert: [UInt8]) -> [UInt8] {
            [0x22] + plain[..<position] + insert + plain[position...] + [0x22]
        }
        let prefix = String(decoding: plain[..<position], as: UTF8.self)
        let suffix = String(decoding: plain[position...], as: UTF8.self)
        #expect(try JSON.parse(text(Array(#"\n"#.utf8))) == .string(prefix + "\n" + suffix))
        #expect(try JSON.parse(text(Array("é".utf8))) == .string(prefix + "é" + suffix))
        #expect(try JSON.parse([0x22] + plain[..<position] + [0x22]) == .string(prefix))
        let control = try parseError(bytes: text([0x01]))
        #expect(control.code == .controlCharacterInString)
        #expect(control.offset == position + 1)
        let invalid = try parseError(bytes: text([0xFF]))
        #expect(invalid.code == .invalidUTF8)
        #expect(invalid.offset == position + 1)
        // Non-ASCII bytes just before the closing quote, in the same 8-byte word as the quote: still checked.
        #expect(try JSON.parse([0x22] + plain[..<position] + Array("é".utf8) + [0x22]) == .string(prefix + "é"))
        let last = try parseError(bytes: [0x22] + plain[..<position] + [0xFF, 0x22])
        #expect(last.code == .invalidUTF8)
        #expect(last.offset == position + 1)
    }

    @Test func invalidUTF8OutsideStringsIsAnUnexpectedCharacter() throws {
        let error = try parseError(bytes: [0x5B, 0xFF, 0x5D])
        #expect(error.code == .unexpectedCharacter)
        #expect(error.offset == 1)
    }

    @Test func tenThousandNestedArraysAreTooDeepNotAStackOverflow() throws {
        let bytes =
            [UInt8](repeating: UInt8(ascii: "["), count: 10_000) + [UInt8](repeating: UInt8(ascii: "]"), count: 10_000)
        let error = try parseError(bytes: bytes)
        #expect(error.code == .tooDeep)
        #expect(error.offset == JSON.defaultMaxDepth)
    }

    @Test func tenThousandNestedObjectsAreTooDeep() throws {
        let text = String(repeating: #"{"a":"#, count: 10_000) + "1" + String(repeating: "}", count: 10_000)
        let error = try parseError(text)
        #expect(error.code == .tooDeep)
        #expect(error.offset == 5 * JSON.defaultMaxDepth)
    }

    @Test func nestingUpToTheLimitIsAccepted() throws {
        let bytes = [UInt8](repeating: UInt8(ascii: "["), count: 8) + [UInt8](repeating: UInt8(ascii: "]"), count: 8)
        #expect(throws: Never.self) { try JSON.parse(bytes, maxDepth: 8) }
        let error = try parseError(bytes: [UInt8(ascii: "[")] + bytes + [UInt8(ascii: "]")], maxDepth: 8)
        #expect(error.code == .tooDeep)
        #expect(error.offset == 8)
    }

    @Test func duplicateKeysAreRejectedAtTheSecondKey() throws {
        let error = try parseError(#"{"a": 1, "b": 2, "a": 3}"#)
        #expect(error.code == .duplicateKey)
        #expect(error.offset == 17)
        #expect(error.reason.contains("\"a\""))
    }

    @Test func duplicateKeysAreFoundInLargeObjects() throws {
        var text = "{"
        for i in 0..<100 { text += #""k\#(i)": \#(i),"# }
        let offset = text.utf8.count
        text += #""k42": 0}"#
        let error = try parseError(text)
        #expect(error.code == .duplicateKey)
        #expect(error.offset == offset)
    }

    @Test func largeObjectsWithUniqueKeysParse() throws {
        var text = "{"
        for i in 0..<5_000 { text += #""key\#(i)":\#(i),"# }
        text.removeLast()
        text += "}"
        let parsed = try JSON.parse(text)
        #expect(parsed.objectValue?.count == 5_000)
        #expect(parsed.objectValue?.keys.last == "key4999")
        #expect(parsed.serialized == text)
    }

    @Test func escapedKeysThatDecodeEquallyAreDuplicates() throws {
        let error = try parseError(#"{"a": 1, "\u0061": 2}"#)
        #expect(error.code == .duplicateKey)
        #expect(error.offset == 9)
    }

    @Test func parsingFromARawBufferMatchesParsingFromAnArray() throws {
        let bytes = Array(#"{"aps": {"badge": 3}}"#.utf8)
        let fromBuffer = try bytes.withUnsafeBytes { raw in try JSON.parse(raw) }
        #expect(fromBuffer == (try JSON.parse(bytes)))
        let empty = [UInt8]().withUnsafeBytes { raw -> JSONError? in
            do throws(JSONError) {
                _ = try JSON.parse(raw)
                return nil
            } catch {
                return error
            }
        }
        #expect(empty?.code == .unexpectedEnd)
    }

    @Test func errorDescriptionNamesTheOffset() throws {
        let error = try parseError("[1,,2]")
        #expect(error.description == "invalid JSON at byte 3: \(error.reason)")
    }
}
