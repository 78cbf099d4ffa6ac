import Testing

@testable import JSON

/// ``UTF8Bytes`` against plain byte loops, at every length and offset around the word sizes it reads.
@Suite struct UTF8BytesTests {
    /// Bytes that differ from one position to the next, so that a word read at a wrong offset shows.
    static let source: [UInt8] = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }

    /// The first eight of `bytes` (all when fewer) as a little-endian word, zeros after them, byte by byte.
    static func word(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var word: UInt64 = 0
        for (i, b) in bytes.prefix(8).enumerated() { word |= UInt64(b) << (8 * UInt64(i)) }
        return word
    }

    @Test func prefixesAndWordsHoldTheBytesAndZerosAfterThem() {
        Self.source.withUnsafeBufferPointer { source in
            for offset in 0..<8 {
                for count in 0...16 {
                    let bytes = Self.source[offset..<offset + count]
                    let start = source.baseAddress! + offset
                    #expect(UTF8Bytes.prefix(start, count: count) == Self.word(bytes), "\(count) at \(offset)")
                    let words = UTF8Bytes.words(start, count: count)
                    #expect(words.0 == Self.word(bytes), "\(count) at \(offset)")
                    #expect(words.1 == Self.word(bytes.dropFirst(8)), "\(count) at \(offset)")
                }
            }
        }
    }

    @Test func shortStringsGiveTheirWordsAndLongerOnesNone() {
        for count in 0...40 {
            let text = String(decoding: Self.source.prefix(count).map { 0x21 + $0 % 94 }, as: UTF8.self)
            let bytes = Array(text.utf8)[...]
            let short = UTF8Bytes.short(text)
            if count <= 16 {
                #expect(short?.count == count)
                #expect(short?.words.0 == Self.word(bytes))
                #expect(short?.words.1 == Self.word(bytes.dropFirst(8)))
            } else {
                #expect(short == nil)
            }
            #expect(UTF8Bytes.with(text) { Array($0) } == Array(bytes))
        }
        #expect(UTF8Bytes.short("caf\u{E9}")?.count == 5)
    }

    /// Two runs equal but for one byte, wherever it is, compare unequal; equal runs compare equal.
    @Test func equalComparesEveryByte() {
        for count in 0...40 {
            let a = Array(Self.source.prefix(count))
            a.withUnsafeBufferPointer { a in
                let pointer = a.baseAddress ?? UnsafePointer(bitPattern: 1)!
                #expect(UTF8Bytes.equal(pointer, pointer, count: count))
            }
            for position in 0..<count {
                var b = a
                b[position] ^= 0x40
                let equal = a.withUnsafeBufferPointer { a in
                    b.withUnsafeBufferPointer { b in UTF8Bytes.equal(a.baseAddress!, b.baseAddress!, count: count) }
                }
                #expect(!equal, "\(count) bytes, differing at \(position)")
            }
        }
    }

    /// A tree and a tape tell a string's text and emptiness alike, without building it; a tape's escaped string is
    /// left to ``JSONReadable/stringValue``.
    @Test func stringsAreToldFromTheirBytesInATreeAndOnATape() throws {
        let document = #"{"a": "", "b": "time-sensitive", "c": "a string longer than sixteen", "d": "\u0061", "e": 1}"#
        let tree = try JSON.parse(document)
        var tape = JSONTape()
        let bytes = Array(document.utf8)
        try bytes.withUnsafeBytes { bytes in
            let parsed = tape.parse(bytes)
            try #require(parsed)
            try tape.withRoot(bytes) { root in
                for (key, text) in [("a", ""), ("b", "time-sensitive"), ("c", "a string longer than sixteen")] {
                    let onTape = try #require(root[key])
                    let inTree = try #require(tree[key])
                    for value in [onTape.isString(""), inTree.isString("")] { #expect(value == text.isEmpty, "\(key)") }
                    #expect(onTape.isEmptyString == text.isEmpty && inTree.isEmptyString == text.isEmpty, "\(key)")
                    #expect(onTape.isString("time-sensitive") == (text == "time-sensitive"), "\(key)")
                    #expect(inTree.isString("time-sensitive") == (text == "time-sensitive"), "\(key)")
                    #expect(!onTape.isString("time-sensitivE") && !inTree.isString("time-sensitivE"), "\(key)")
                }
                #expect(tree["d"]?.isString("a") == true)
                #expect(root["d"]?.isString("a") == false)  // escaped: read through stringValue
                #expect(root["d"]?.stringValue == "a")
                #expect(root["d"]?.isEmptyString == false && tree["d"]?.isEmptyString == false)
                #expect(root["e"]?.isString("1") == false && tree["e"]?.isString("1") == false)
                #expect(root["e"]?.isEmptyString == false && tree["e"]?.isEmptyString == false)
            }
        }
    }
}
