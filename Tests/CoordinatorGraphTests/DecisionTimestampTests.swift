import CoordinatorGraph
import JSON
import Testing

@Suite struct DecisionTimestampTests {
    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"),
        (1_714_566_896_789, "2024-05-01T12:34:56.789Z"),
        (951_782_400_000, "2000-02-29T00:00:00.000Z"),
        (-2_203_891_201_000, "1900-02-28T23:59:59.000Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
    ])
    func timestampIsWrittenAsRFC3339UTCWithMilliseconds(milliseconds: Int64, text: String) {
        let timestamp = Timestamp(millisecondsSince1970: milliseconds)
        #expect(timestamp.rfc3339 == text)
        #expect(Timestamp(rfc3339: text) == timestamp)
    }

    /// Years outside four digits keep every digit (and the sign), and small fields their zeros.
    @Test(arguments: [
        (Int64(253_402_300_800_000), "10000-01-01T00:00:00.000Z"),
        (-62_009_366_400_000, "0005-01-01T00:00:00.000Z"),
        (-62_198_755_200_000, "-0001-01-01T00:00:00.000Z"),
        (1_000_000_000_001, "2001-09-09T01:46:40.001Z"),
        (Int64.min, "-292275055-05-16T16:47:04.192Z"),
        (Int64.max, "292278994-08-17T07:12:55.807Z"),
    ])
    func timestampsBeyondFourDigitYearsAreWrittenWhole(milliseconds: Int64, text: String) {
        #expect(Timestamp(millisecondsSince1970: milliseconds).rfc3339 == text)
    }

    /// Every millisecond from year 0 to 9999 (sampled) reads back as itself, and the text has the fixed layout.
    @Test func timestampsOfFourDigitYearsRoundTrip() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let first: Int64 = -62_167_219_200_000  // 0000-01-01T00:00:00.000Z
        let last: Int64 = 253_402_300_799_999  // 9999-12-31T23:59:59.999Z
        for i in 0..<5_000 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            let ms = i < 2 ? [first, last][i] : first + Int64(state % UInt64(last - first + 1))
            let text = Timestamp(millisecondsSince1970: ms).rfc3339
            #expect(Timestamp(rfc3339: text)?.millisecondsSince1970 == ms, "\(ms) → \(text)")
            #expect(text.utf8.count == 24 && text.hasSuffix("Z"), "\(text)")
        }
    }

    @Test(arguments: [
        ("2024-05-01T12:34:56Z", Int64(1_714_566_896_000)),
        ("2024-05-01t12:34:56.7z", 1_714_566_896_700),
        ("2024-05-01T12:34:56.789123Z", 1_714_566_896_789),
        ("2024-05-01T14:34:56.789+02:00", 1_714_566_896_789),
        ("2024-05-01T07:04:56.789-05:30", 1_714_566_896_789),
        ("1970-01-01T00:00:00Z", 0),
        ("1969-12-31T23:59:59.000Z", -1_000),
        ("2024-02-29T23:59:59.9999Z", 1_709_251_199_999),
    ])
    func rfc3339WithOffsetsAndFractionsIsRead(text: String, milliseconds: Int64) {
        #expect(Timestamp(rfc3339: text)?.millisecondsSince1970 == milliseconds)
    }

    @Test(arguments: [
        "", "2024-05-01", "2024-05-01T12:34:56", "2024-13-01T00:00:00Z", "2023-02-29T00:00:00Z",
        "2024-05-01T24:00:00Z", "2024-05-01T12:34:56.Z", "2024-05-01T12:34:56Zjunk", "24-05-01T12:34:56Z",
        "2024-05-01T12:34:56+2:00",
    ])
    func malformedTimestampIsRejected(text: String) {
        #expect(Timestamp(rfc3339: text) == nil)
    }

    @Test func addingSecondsMovesByMilliseconds() {
        let t = Timestamp(millisecondsSince1970: 1000)
        #expect(t.adding(seconds: 600).millisecondsSince1970 == 601_000)
        #expect(t.adding(seconds: -1).millisecondsSince1970 == 0)
        #expect(t < t.adding(seconds: 1))
    }

    /// Kept texts are written again only for the same millisecond: a sequence that revisits, alternates and leaves
    /// both slots writes what ``Timestamp/rfc3339`` does for each, including years it does not keep and `Int64.min`.
    @Test func keptTimestampTextsMatchTheTimestamps() {
        let created: Int64 = 1_714_566_896_789
        let expires = created + 900_000
        let sequence: [Int64] = [
            created, created, expires, created, expires, expires, created + 1, created, expires, created + 1,
            253_402_300_800_000, created + 1, .min, .min, -62_198_755_200_000, 0, -1, 0, created,
        ]
        var texts = TimestampTexts()
        var out = ByteWriter()
        for ms in sequence {
            out.truncate(to: 0)
            texts.write(Timestamp(millisecondsSince1970: ms), into: &out)
            let written = out.withBytes { String(decoding: $0, as: UTF8.self) }
            #expect(written == Timestamp(millisecondsSince1970: ms).rfc3339, "\(ms)")
        }
    }
}
