import Testing

@testable import JSON

/// RFC 3629's well-formed sequences, and the first bad one found where it starts.
struct UTF8ValidationTests {
    @Test(arguments: [
        [UInt8](), Array("plain ASCII".utf8), Array("é € 𝄞 ✓".utf8), [0xF4, 0x8F, 0xBF, 0xBF], [0xEF, 0xBF, 0xBF],
    ])
    func wellFormedSequencesPass(bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { #expect(UTF8Validation.isValid($0)) }
    }

    @Test(
        arguments: [
            ([0x61, 0x80], 1, UTF8Validation.Problem.invalidByte),  // a continuation byte alone
            ([0xC0, 0x80], 0, .invalidByte),  // the overlong form of NUL
            ([0x61, 0x62, 0xE0, 0x80, 0x80], 2, .invalidSequence),  // an overlong three-byte form
            ([0xED, 0xA0, 0x80], 0, .invalidSequence),  // a UTF-16 surrogate
            ([0xF4, 0x90, 0x80, 0x80], 0, .invalidSequence),  // past U+10FFFF
            ([0xF5, 0x80, 0x80, 0x80], 0, .invalidByte),
            ([0xE2, 0x82], 0, .truncated),  // "€" cut short
            ([0xE2, 0x82, 0x41], 0, .invalidSequence),
        ] as [([UInt8], Int, UTF8Validation.Problem)])
    func theFirstBadSequenceIsNamedWhereItStarts(bytes: [UInt8], offset: Int, problem: UTF8Validation.Problem) {
        bytes.withUnsafeBufferPointer { buffer in
            let found = UTF8Validation.firstProblem(in: buffer, from: 0, to: buffer.count)
            #expect(found?.offset == offset)
            #expect(found?.problem == problem)
            #expect(!UTF8Validation.isValid(buffer))
        }
    }

    @Test func onlyTheGivenRangeIsLookedAt() {
        let bytes: [UInt8] = [0xFF, 0x61, 0x62, 0xFF]
        bytes.withUnsafeBufferPointer { buffer in
            #expect(UTF8Validation.firstProblem(in: buffer, from: 1, to: 3) == nil)
            #expect(UTF8Validation.firstProblem(in: buffer, from: 1, to: 4)?.offset == 3)
        }
    }

    @Test func everyScalarSwiftEncodesIsValid() {
        for value in stride(from: 0, through: 0x10FFFF, by: 97) {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let bytes = Array(String(Character(scalar)).utf8)
            bytes.withUnsafeBufferPointer { #expect(UTF8Validation.isValid($0), "U+\(String(value, radix: 16))") }
        }
    }
}
