import Testing

@testable import JSON

/// Short strings parsed from bytes and short keys compared: the strings the parser builds are the standard library's
/// own (equal, same bytes, same hash), and keys are found as `String` equality finds them.
@Suite struct ShortStringTests {
    /// Printable ASCII of every length up to `count`, cycling through the whole printable range.
    static func ascii(_ count: Int, offset: Int = 0) -> [UInt8] {
        (0..<count).map { i -> UInt8 in
            let b = UInt8(0x21 + (i + offset) % 94)
            return b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") ? UInt8(ascii: "x") : b
        }
    }

    @Test(arguments: 0...40)
    func parsedStringsEqualTheStandardLibrarysAtEveryLength(count: Int) throws {
        let content = Self.ascii(count)
        let expected = String(decoding: content, as: UTF8.self)
        // Padding after the closing quote moves the end of the buffer, so that a string ends at it or before it.
        for padding in 0...17 {
            let text = [0x22] + content + [0x22] + Array(repeating: 0x20, count: padding)
            let parsed = try #require(try JSON.parse(text).stringValue)
            #expect(parsed == expected)
            #expect(parsed.utf8.count == count)
            #expect(Array(parsed.utf8) == content)
            #expect(parsed.hashValue == expected.hashValue)
            #expect(parsed + "é" == expected + "é")
            var tape = JSONTape()
            let read = text.withUnsafeBytes { bytes in
                tape.parse(bytes) ? tape.withRoot(bytes) { $0.stringValue } : nil
            }
            #expect(read == expected)
            #expect(read.map { Array($0.utf8) } == content)
        }
    }

    @Test(arguments: 12...20)
    func escapesNonASCIIAndInvalidUTF8AroundTheShortStringLimit(count: Int) throws {
        let plain = Self.ascii(count - 2)
        let prefix = String(decoding: plain, as: UTF8.self)
        #expect(try JSON.parse([0x22] + plain + Array(#"\n"#.utf8) + [0x22]) == .string(prefix + "\n"))
        #expect(try JSON.parse([0x22] + plain + Array(#"\u0041"#.utf8) + [0x22]) == .string(prefix + "A"))
        #expect(try JSON.parse([0x22] + plain + Array(#"\u00e9"#.utf8) + [0x22]) == .string(prefix + "é"))
        #expect(try JSON.parse([0x22] + plain + Array("é".utf8) + [0x22]) == .string(prefix + "é"))
        #expect(try JSON.parse([0x22] + plain + [0x7F] + [0x22]) == .string(prefix + "\u{7F}"))
        for bad: [UInt8] in [[0xFF], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80]] {
            do {
                let value = try JSON.parse([0x22] + plain + bad + [0x22])
                Issue.record("parsed \(value)")
            } catch {
                #expect(error.code == .invalidUTF8)
                #expect(error.offset == plain.count + 1)
            }
        }
    }

    @Test func keysOfEveryLengthAreFoundAndDuplicatesRejected() throws {
        let keys = (0...20).map { String(decoding: Self.ascii($0, offset: $0), as: UTF8.self) }
        var object = JSONObject()
        for (i, key) in keys.enumerated() { object[key] = .int(i) }
        for (i, key) in keys.enumerated() {
            #expect(object[key] == .int(i))
            // The same key built another way (a native string, not a short one kept in the string itself) is found too.
            var large = String(decoding: Self.ascii(40), as: UTF8.self)
            large.removeAll(keepingCapacity: true)
            large += key
            #expect(object[large] == .int(i))
        }
        #expect(object["absent"] == nil)
        #expect(object[keys[3] + "x"] == nil)
        let text = "{" + keys.map { "\"\($0)\": 1" }.joined(separator: ", ") + "}"
        #expect(try JSON.parse(text).objectValue?.count == keys.count)
        for key in keys.prefix(16) {
            let duplicated = #"{"\#(key)": 1, "other": 2, "\#(key)": 3}"#
            #expect(throws: JSONError.self) { try JSON.parse(duplicated) }
        }
    }

    @Test func keysMatchAsBeforeSameUTF8LengthAndEqual() throws {
        // Canonically equivalent keys: U+212A KELVIN SIGN and "K" (lengths differ), U+00E9 and "e" + U+0301
        // (lengths differ), and two orders of the same marks on a D (same length).
        let keys = [
            "K", "\u{212A}", "\u{E9}", "e\u{301}", "\u{1E0A}\u{323}", "\u{1E0C}\u{307}", "abc", "abcdefghijklmnop",
        ]
        for stored in keys {
            let object: JSONObject = [stored: 1]
            for looked in keys {
                let expected = stored.utf8.count == looked.utf8.count && stored == looked
                #expect((object[looked] != nil) == expected, "\(stored) looked up as \(looked)")
            }
        }
        #expect(try JSON.parse(#"{"K": 1, "\u212A": 2}"#).objectValue?.count == 2)
        #expect(throws: JSONError.self) { try JSON.parse(#"{"\u1E0A\u0323": 1, "\u1E0C\u0307": 2}"#) }
    }
}

extension ShortStringTests {
    @Test func keysEqualIsStringEquality() {
        let samples = ["", "a", "K", "\u{212A}", "abcdefghijklmno", "abcdefghijklmnop", "é", "e\u{301}", "ab", "ba"]
        for a in samples {
            for b in samples { #expect(JSONObject.keysEqual(a, b) == (a == b), "\(a) vs \(b)") }
        }
    }
}
