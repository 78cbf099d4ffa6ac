import JSON
import Testing

@testable import DeepLink

/// The payload key tables find each of their keys by its bytes, from a tree's string or a tape's bytes, and nothing
/// else: no prefix, no longer key, no near miss.
@Suite struct PayloadKeyTableTests {
    /// Every key of the tables the APNs reader uses.
    static let knownKeys =
        PayloadReader.apsMembers.names + PayloadReader.alertMembers.names + PayloadReader.soundMembers.names

    /// Keys that are not `key` but close to it: one byte shorter or longer, the first or last byte changed, other
    /// spellings of its separators and case.
    static func nearMisses(of key: String) -> [String] {
        var misses = [
            String(key.dropLast()), String(key.dropFirst()), key + "s", key + "-", "x" + key, key.uppercased(),
            String(key.map { $0 == "-" ? "_" : $0 }), key.filter { $0 != "-" },
            String(key.dropLast()) + "X", "X" + String(key.dropFirst()), key + "\u{0}", key + "é",
        ]
        if key.count > 8 { misses.append(String(key.prefix(8))) }
        return misses.filter { $0 != key }
    }

    /// Looks `keys` up in `table` through a tape: each key of a parsed object, in order.
    static func tapeLookups<Member>(_ keys: [String], in table: PayloadKeyTable<Member>) throws -> [Member?] {
        var object = JSONObject()
        for (i, key) in keys.enumerated() { object[key] = .int(i) }
        let bytes = Array(JSON.object(object).serialized.utf8)
        var tape = JSONTape()
        return try bytes.withUnsafeBytes { raw in
            let parsed = tape.parse(raw)
            try #require(parsed, "the tape takes \(keys)")
            return tape.withRoot(raw) { root in root.keyedMembers.map { table[$0.key] } }
        }
    }

    @Test func everyKnownKeyIsFoundWithItsMember() throws {
        for (name, expected) in [
            ("alert", PayloadReader.APSMember.alert), ("badge", .badge),
            ("interruption-level", .interruptionLevel), ("target-content-id", .targetContentID),
            ("url-args", .stringArray),
        ] {
            #expect(PayloadReader.apsMembers[name] == expected)
        }
        #expect(PayloadReader.alertMembers["action-loc-key"] == .stringOrNull)
        #expect(PayloadReader.alertMembers["sound"] == .sound)
        #expect(PayloadReader.soundMembers["volume"] == .volume)
        for table in [PayloadReader.apsMembers.names, PayloadReader.alertMembers.names] {
            #expect(Set(table).count == table.count)
        }
        #expect(PayloadReader.apsMembers.names.allSatisfy { PayloadReader.apsMembers[$0] != nil })
        #expect(PayloadReader.alertMembers.names.allSatisfy { PayloadReader.alertMembers[$0] != nil })
        #expect(PayloadReader.soundMembers.names.allSatisfy { PayloadReader.soundMembers[$0] != nil })
        let fromTape = try Self.tapeLookups(PayloadReader.apsMembers.names, in: PayloadReader.apsMembers)
        #expect(fromTape == PayloadReader.apsMembers.names.map { PayloadReader.apsMembers[$0] })
        #expect(fromTape.allSatisfy { $0 != nil })
    }

    @Test(arguments: knownKeys)
    func nearMissesOfAKnownKeyAreNotFound(key: String) throws {
        let misses = Self.nearMisses(of: key).filter { !Self.knownKeys.contains($0) }
        for miss in misses {
            #expect(PayloadReader.apsMembers[miss] == nil, "\(miss)")
            #expect(PayloadReader.alertMembers[miss] == nil, "\(miss)")
            #expect(PayloadReader.soundMembers[miss] == nil, "\(miss)")
        }
        let plain = misses.filter { !$0.contains("\u{0}") }
        #expect(try Self.tapeLookups(plain, in: PayloadReader.apsMembers).allSatisfy { $0 == nil })
        #expect(try Self.tapeLookups(plain, in: PayloadReader.alertMembers).allSatisfy { $0 == nil })
    }

    @Test func keysSharingTheirFirstWordAreToldApart() throws {
        let keys = [
            "", "\u{0}", "a", "a\u{0}", "abcdefgh", "abcdefgh\u{0}", "abcdefghi", "abcdefghij", "abcdefghik",
            "abcdefghijklmnopq", "abcdefghijklmnopr", "ключ", "клю",
        ]
        let table = PayloadKeyTable<Int>(keys.enumerated().map { ($0.element, $0.offset) })
        for (i, key) in keys.enumerated() { #expect(table[key] == i, "\(key)") }
        for miss in ["b", "abcdefg", "abcdefghh", "abcdefghijk", "abcdefghijklmnop", "abcdefghijklmnopqr", "кл"] {
            #expect(table[miss] == nil, "\(miss)")
        }
        let plain = keys.filter { !$0.contains("\u{0}") }
        #expect(try Self.tapeLookups(plain, in: table) == plain.map { table[$0] })
    }

    @Test func aLargeTableFindsEveryKeyAndNoOther() {
        let keys = (0..<200).map { "key-\($0)" }
        let table = PayloadKeyTable<Int>(keys.enumerated().map { ($0.element, $0.offset) })
        #expect(table.slots.count >= 4 * keys.count)
        for (i, key) in keys.enumerated() { #expect(table[key] == i) }
        for i in 200..<400 { #expect(table["key-\(i)"] == nil) }
        #expect(table.names == keys)
    }
}
