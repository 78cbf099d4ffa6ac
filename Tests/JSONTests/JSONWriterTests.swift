import JSON
import Testing

@Suite struct JSONWriterTests {
    @Test(arguments: [
        #"{"aps":{"alert":{"title":"Hi","body":"There"},"badge":3},"deeplink":"shop://offers/SUMMER"}"#,
        #"[1,-2,1.5,true,false,null,"x",[],{}]"#,
        #"{"n":9223372036854775807,"m":-9223372036854775808}"#,
        #""a\"b\\c\n\r\t\u0000\u001f""#,
        #""héllo 😀""#,
        #"{"b":1,"a":2}"#,
    ])
    func compactTextRoundTripsUnchanged(text: String) throws {
        #expect(try JSON.parse(text).serialized == text)
    }

    @Test(
        arguments: [
            JSON.null, true, false, 0, -1, .int(Int.max), .int(Int.min), 1.5, -0.001, 1e300, 2.0, -3.0, 1e15, 1e-7,
            "", "quote\" backslash\\ slash/", "\u{7F}\u{1}\u{1F}\u{0B}", "😀𝄞", ["nested": [1, ["deep": nil]]],
        ] as [JSON])
    func valuesRoundTripThroughText(value: JSON) throws {
        #expect(try JSON.parse(value.serialized) == value)
        #expect(try JSON.parse(value.prettyPrinted()) == value)
    }

    @Test func controlCharactersAreEscapedOnWrite() {
        let value = JSON.string("a\u{0}b\u{8}c\u{C}d\ne\rf\tg\u{1B}h\u{1F}")
        #expect(value.serialized == #""a\u0000b\u0008c\u000cd\ne\rf\tg\u001bh\u001f""#)
    }

    @Test func keysAreEscapedToo() {
        let value: JSON = ["line\nbreak": 1, "quo\"te": 2]
        #expect(value.serialized == #"{"line\nbreak":1,"quo\"te":2}"#)
    }

    @Test func nonASCIIIsWrittenAsUTF8() {
        #expect(JSON.string("é€😀").serialized == "\"é€😀\"")
    }

    @Test(arguments: [
        (JSON.double(2.0), "2.0"), (.double(-3.0), "-3.0"), (.double(0.5), "0.5"), (.double(-0.0), "-0.0"),
        (.double(1e20), "1e+20"), (.double(.infinity), "null"), (.double(.nan), "null"), (.int(0), "0"),
        (.int(-42), "-42"),
    ])
    func numbersAreWrittenAsJSONNumbers(value: JSON, text: String) {
        #expect(value.serialized == text)
    }

    @Test func doublesWithoutFractionStayDoublesAcrossARoundTrip() throws {
        #expect(try JSON.parse(JSON.double(2).serialized) == .double(2))
    }

    @Test func prettyPrintingIndentsOneMemberPerLine() {
        let value: JSON = ["aps": ["alert": "Hi", "badge": 1], "list": [1, 2], "empty": [], "none": [:]]
        let expected = """
            {
              "aps": {
                "alert": "Hi",
                "badge": 1
              },
              "list": [
                1,
                2
              ],
              "empty": [],
              "none": {}
            }
            """
        #expect(value.prettyPrinted() == expected)
    }

    @Test func prettyPrintingHonoursTheIndentWidth() {
        let value: JSON = ["a": [true]]
        #expect(value.prettyPrinted(indent: 4) == "{\n    \"a\": [\n        true\n    ]\n}")
        #expect(JSON.int(5).prettyPrinted() == "5")
    }

    @Test func writeIntoAppendsToExistingBytes() {
        var out = ByteWriter()
        out.append("x=")
        JSON.array([1, "a"]).write(into: &out)
        #expect(String(decoding: out.finish(), as: UTF8.self) == #"x=[1,"a"]"#)
        #expect(JSON.string("d").description == #""d""#)
    }

    /// Short ASCII strings are written from their two inline words; every special byte at every position of every
    /// inline length must still be escaped, and nothing past the string's end written.
    @Test func shortStringsAreEscapedAtEveryPositionAndLength() throws {
        func reference(_ s: String) -> String {
            var text = "\""
            for b in s.utf8 {
                switch b {
                case 0x22: text += "\\\""
                case 0x5C: text += "\\\\"
                case 0x0A: text += "\\n"
                case 0x0D: text += "\\r"
                case 0x09: text += "\\t"
                case 0..<0x20:
                    let hex = String(b, radix: 16)
                    text += "\\u00" + (hex.count == 1 ? "0" : "") + hex
                default: text += String(UnicodeScalar(b))
                }
            }
            return text + "\""
        }
        for length in 0...16 {
            let plain = String(repeating: "k", count: length)
            #expect(JSON.string(plain).serialized == reference(plain))
            for position in 0..<length {
                for special: UInt8 in [0x22, 0x5C, 0x00, 0x01, 0x0A, 0x1F, 0x20, 0x7E, 0x7F] {
                    var bytes = Array(plain.utf8)
                    bytes[position] = special
                    let s = String(decoding: bytes, as: UTF8.self)
                    #expect(
                        JSON.string(s).serialized == reference(s), "length \(length), byte \(special) at \(position)")
                    #expect(try JSON.parse(JSON.string(s).serialized) == .string(s))
                }
            }
        }
    }
}
