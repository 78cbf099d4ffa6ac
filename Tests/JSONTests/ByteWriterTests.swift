import Testing

@testable import JSON

@Suite struct ByteWriterTests {
    @Test func appendsGrowPastTheInitialCapacityAndKeepEveryByte() {
        var out = ByteWriter(capacity: 16)
        var expected: [UInt8] = []
        for i in 0..<1_000 {
            let byte = UInt8(truncatingIfNeeded: i)
            out.append(byte)
            expected.append(byte)
            if i % 7 == 0 {
                out.append("<tag>")
                expected += Array("<tag>".utf8)
            }
        }
        out.append(repeating: 0x20, count: 300)
        expected += Array(repeating: 0x20, count: 300)
        out.append(utf8: "é and ✓")
        expected += Array("é and ✓".utf8)
        #expect(out.count == expected.count)
        #expect(out[0] == 0 && out[out.count - 1] == expected.last)
        #expect(out.finish() == expected)
    }

    /// Copies of every length up to 40 bytes (the short ones as overlapping words), from every offset of a source
    /// and at every offset of the writer's buffer, keep exactly their bytes and touch nothing around them.
    @Test func copiesOfEveryShortLengthKeepTheirBytes() {
        let source = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        source.withUnsafeBytes { source in
            for length in 0...40 {
                for offset in 0..<(64 - length) {
                    var out = ByteWriter(capacity: 16)
                    var expected: [UInt8] = []
                    for lead in 0..<(offset % 9) {
                        out.append(UInt8(lead))
                        expected.append(UInt8(lead))
                    }
                    out.append(source.baseAddress! + offset, count: length)
                    expected += source[offset..<offset + length]
                    out.append(0xEE)
                    expected.append(0xEE)
                    #expect(out.finish() == expected, "\(length) bytes from \(offset)")
                }
            }
        }
    }

    /// Strings of every length around the short-string limit, ASCII and not, built at run time and from literals,
    /// appended one after the other from a nearly full buffer: the same bytes as their UTF-8, nothing past them.
    @Test func utf8OfShortAndLongStringsIsAppendedExactly() {
        var texts: [String] = []
        for length in 0...20 {
            let ascii = String("abcdefghijklmnopqrstuvwxyz".prefix(length))
            texts.append(ascii)
            texts.append(String(decoding: Array(ascii.utf8), as: UTF8.self))
            texts.append(String(repeating: "é", count: length / 2))
            texts.append("\u{7F}" + ascii)
        }
        texts += ["", "a", "0123456789abcde", "0123456789abcdef", "✓", "DEL \u{7F}"]
        var out = ByteWriter(capacity: 16)
        var expected: [UInt8] = []
        for text in texts {
            out.append(utf8: text)
            expected += Array(text.utf8)
            out.append(UInt8(ascii: "|"))
            expected.append(UInt8(ascii: "|"))
        }
        #expect(out.finish() == expected)
    }

    /// A string of up to 16 bytes is appended as it is only when no byte of it is one a Swift literal escapes,
    /// wherever that byte is; a longer string is left to the caller.
    @Test func onlyPlainShortStringsAreAppendedAsTheyAre() {
        var out = ByteWriter(capacity: 16)
        var expected: [UInt8] = []
        for length in 0...16 {
            let plain = String("abcdefghijklmnopqrstuvwxyz".prefix(length))
            let appended = out.appendIfPlain(plain)
            #expect(appended, "\(plain)")
            expected += Array(plain.utf8)
            for special in ["\"", "\\", "\n", "\u{01}", "\u{1F}", "\u{7F}"] where length > 0 {
                for position in 0..<length {
                    var bytes = Array(plain.utf8)
                    bytes[position] = special.utf8.first!
                    let text = String(decoding: bytes, as: UTF8.self)
                    let appended = out.appendIfPlain(text)
                    #expect(!appended, "\(Array(text.utf8))")
                }
            }
        }
        for other in ["abcdefghijklmnopq", String(repeating: "x", count: 40)] {
            let appended = out.appendIfPlain(other)
            #expect(!appended, "\(other)")
        }
        for plain in ["~ }|{", "caf\u{E9}", "\u{2713} done"] {
            let appended = out.appendIfPlain(plain)
            #expect(appended, "\(plain)")
            expected += Array(plain.utf8)
        }
        #expect(out.finish() == expected)
    }

    /// Every ASCII byte at every position of every short length: a short string is appended as it is exactly when
    /// none of its bytes needs an escape (a quote, a backslash, a control character, and for a Swift literal DEL),
    /// and a JSON string is written with the escapes a plain byte loop gives, whichever way it is written.
    @Test func everyASCIIByteOfAnInlineStringIsJudgedAsAByteLoopJudgesIt() {
        func reference(_ bytes: [UInt8]) -> [UInt8] {
            var out: [UInt8] = []
            for b in bytes {
                switch b {
                case 0x22: out += Array(#"\""#.utf8)
                case 0x5C: out += Array(#"\\"#.utf8)
                case 0x0A: out += Array(#"\n"#.utf8)
                case 0x0D: out += Array(#"\r"#.utf8)
                case 0x09: out += Array(#"\t"#.utf8)
                case ..<0x20:
                    let hex = Array("0123456789abcdef".utf8)
                    out += Array(#"\u00"#.utf8) + [hex[Int(b >> 4)], hex[Int(b & 0xF)]]
                default: out.append(b)
                }
            }
            return out
        }
        for length in 1...17 {
            for position in 0..<length {
                for byte in UInt8(0)...0x7F {
                    var bytes = Array("abcdefghijklmnopq".utf8.prefix(length))
                    bytes[position] = byte
                    let text = String(decoding: bytes, as: UTF8.self)
                    let special = byte < 0x20 || byte == 0x22 || byte == 0x5C
                    var out = ByteWriter(capacity: 4)
                    #expect(out.appendIfPlain(text) == (length <= 16 && !(special || byte == 0x7F)), "\(bytes)")
                    var json = ByteWriter(capacity: 4)
                    JSON.writeStringContents(text, into: &json)
                    #expect(json.finish() == reference(bytes), "\(bytes)")
                }
            }
        }
    }

    /// A range already written, copied to the end: every length up to 40 from every offset, and copies that make
    /// the writer grow (the bytes are read from the grown buffer).
    @Test func copiesOfWrittenBytesRepeatThemAtTheEnd() {
        let written = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ 3) }
        for length in 0...40 {
            for start in 0...(64 - length) {
                var out = ByteWriter(capacity: 64)  // full: each copy grows it
                written.withUnsafeBytes { out.append($0.baseAddress!, count: 64) }
                out.appendCopy(of: start..<(start + length))
                out.append(UInt8(ascii: "$"))
                #expect(out.finish() == written + written[start..<(start + length)] + [UInt8(ascii: "$")])
            }
        }
        var out = ByteWriter(capacity: 16)
        out.append("abc")
        for _ in 0..<6 { out.appendCopy(of: 0..<out.count) }  // doubling, past several growths
        #expect(out.finish() == Array(String(repeating: "abc", count: 64).utf8))
    }

    @Test func truncateUndoesAPartialWrite() {
        var out = ByteWriter()
        out.append("kept")
        let mark = out.count
        out.append(",dropped")
        out.truncate(to: mark)
        out.append("!")
        #expect(out.finish() == Array("kept!".utf8))
    }

    @Test func appendWrittenAddsToAnExistingArray() {
        var bytes = Array("x=".utf8)
        bytes.appendWritten { JSON.writeString("a\"b", into: &$0) }
        #expect(bytes == Array(#"x="a\"b""#.utf8))
    }

    /// The escaper skips whole 8-byte words without special bytes: a special byte at every offset of a long string,
    /// and non-ASCII text around it, must come out exactly as the byte-at-a-time escaper writes it.
    @Test(arguments: [UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x0A, 0x01, 0x1F, 0x09])
    func stringsEscapeASpecialByteAtEveryOffset(special: UInt8) {
        for length in [1, 7, 8, 9, 15, 16, 17, 40] {
            for offset in 0..<length {
                var raw = Array("abcdéfgh✓ijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOP".utf8.prefix(length))
                raw[offset] = special
                let text = String(decoding: raw, as: UTF8.self)
                var out = ByteWriter()
                JSON.writeString(text, into: &out)
                #expect(out.finish() == Self.escapedByteByByte(text), "length \(length), offset \(offset)")
            }
        }
    }

    private static func escapedByteByByte(_ text: String) -> [UInt8] {
        var out: [UInt8] = [0x22]
        for b in text.utf8 {
            switch b {
            case 0x22: out += [0x5C, 0x22]
            case 0x5C: out += [0x5C, 0x5C]
            case 0x0A: out += Array(#"\n"#.utf8)
            case 0x0D: out += Array(#"\r"#.utf8)
            case 0x09: out += Array(#"\t"#.utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += Array(#"\u00"#.utf8) + [hex[Int(b >> 4)], hex[Int(b & 0xF)]]
            default: out.append(b)
            }
        }
        out.append(0x22)
        return out
    }
}
