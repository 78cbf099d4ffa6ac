import Testing

@testable import NotifyDaemon

/// The expected bytes are what PostgreSQL 15 itself sends for the same arrays (`encode(array_send(…), 'hex')`), so
/// that the server's `array_recv` reads ours as it reads its own.
@Suite struct PGBinaryArrayTests {
    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    @Test func textWithANullAndMultibyteCharacters() {
        // SELECT encode(array_send(ARRAY['ab', NULL, '"é']::text[]), 'hex')
        var array = PGBinaryArray(of: .text)
        array.append("ab")
        array.append(nil as [UInt8]?)
        array.append("\"é")
        #expect(array.count == 3)
        #expect(
            hex(array.bytes)
                == "0000000100000001000000190000000300000001000000026162ffffffff0000000322c3a9")
    }

    @Test func bigintsWithANull() {
        // SELECT encode(array_send(ARRAY[-1, NULL, 1700000000000]::bigint[]), 'hex')
        var array = PGBinaryArray(of: .bigint)
        array.append(Int64(-1))
        array.append(nil as Int64?)
        array.append(Int64(1_700_000_000_000))
        #expect(
            hex(array.bytes)
                == "000000010000000100000014000000030000000100000008ffffffffffffffff"
                + "ffffffff000000080000018bcfe56800")
    }

    @Test func emptyArrayHasNoDimensions() {
        // SELECT encode(array_send('{}'::text[]), 'hex')
        #expect(hex(PGBinaryArray(of: .text).bytes) == "000000000000000000000019")
    }
}
