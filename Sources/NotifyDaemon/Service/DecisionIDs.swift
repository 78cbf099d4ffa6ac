/// Random version-4 UUID strings for decision ids, from a xoshiro256** generator seeded once from
/// `getrandom`: ids are unique and unguessable enough for a history key, without a syscall each.
struct DecisionIDs {
    private var state: (UInt64, UInt64, UInt64, UInt64)

    init() {
        var seed = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        withUnsafeMutableBytes(of: &seed) { Sys.randomBytes($0) }
        if seed == (0, 0, 0, 0) { seed.0 = UInt64(bitPattern: Int64(Sys.wallClockMilliseconds())) | 1 }
        state = seed
    }

    private mutating func next() -> UInt64 {
        let result = rotl(state.1 &* 5, 7) &* 9
        let t = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= t
        state.3 = rotl(state.3, 45)
        return result
    }

    private func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// A new id such as `5f0c7e1e-2b4d-4c1a-9f3e-0a1b2c3d4e5f`.
    mutating func make() -> String {
        var high = next()
        var low = next()
        high = (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000  // version 4
        low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000  // variant 10
        var bytes = [UInt8](repeating: UInt8(ascii: "-"), count: 36)
        var position = 0
        for (i, word) in [high, low].enumerated() {
            for nibble in 0..<16 {
                if position == 8 || position == 13 || position == 18 || position == 23 { position += 1 }
                let shift = UInt64(60 - nibble * 4)
                bytes[position] = Self.hex[Int((word >> shift) & 0xF)]
                position += 1
            }
            _ = i
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
