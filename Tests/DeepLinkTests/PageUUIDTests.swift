import DeepLink
import Foundation
import Testing

/// DeepLink's UUID reads and writes UUIDs as Foundation's does (the daemon links no Foundation).
@Suite struct PageUUIDTests {
    @Test func readsAndWritesAsFoundationDoes() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let uuid = UUID()
            for text in [uuid.uuidString, uuid.uuidString.lowercased()] {
                let page = PageUUID(uuidString: text)
                #expect(page?.uuidString == uuid.uuidString, "\(text)")
                #expect(page?.description == uuid.uuidString)
            }
            // One character changed, or the text cut or lengthened: read alike, or refused alike. (Not a space, an
            // `x` nor a `-` in place of a digit: Foundation's reader takes " 4", "0x" and "-E" for digit pairs, as
            // `sscanf` does; DeepLink's, as the links' reader always did, refuses them, below.)
            var bytes = Array(uuid.uuidString.utf8)
            let alphabet = Array("0123456789abcdefABCDEFgG{".utf8)
            bytes[Int.random(in: 0..<bytes.count, using: &generator)] = alphabet.randomElement(using: &generator)!
            for text in [
                String(decoding: bytes, as: UTF8.self), String(decoding: bytes.dropLast(), as: UTF8.self),
                String(decoding: bytes + [0x30], as: UTF8.self),
            ] {
                #expect(PageUUID(uuidString: text)?.uuidString == UUID(uuidString: text)?.uuidString, "\(text)")
            }
        }
    }

    @Test func keepsItsBitsInOrder() throws {
        let uuid = try #require(PageUUID(uuidString: "e621e1f8-c36c-495a-93fc-0c247a3e6e5f"))
        #expect(uuid.high == 0xE621_E1F8_C36C_495A && uuid.low == 0x93FC_0C24_7A3E_6E5F)
        #expect(PageUUID(high: uuid.high, low: uuid.low) == uuid)
        #expect(uuid.uuidString == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        for text in [
            "", "E621E1F8C36C495A93FC0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6E5",
            "é621E1F8-C36C-495A-93FC-0C247A3E6E5F",
            // Read by Foundation as digit pairs (" 5" as 05, "0x" as 00, "-3" as FD):
            "E621E1F8-C36C-495A-93FC-0C247A3E6E 5", "E621E1F8-C36C-495A-93FC-0C247A3E6E0x",
            "E621E1F8-C36C-495A--3FC-0C247A3E6E5F",
        ] {
            #expect(PageUUID(uuidString: text) == nil, "\(text)")
        }
    }
}
