import CoordinatorGraph
import DeepLink
import JSON
import Testing

/// A decision id is kept as a UUID's bits or as its text; either way it reads, compares and writes as its text.
@Suite struct DecisionIDFormTests {
    typealias S = Shop

    static let uuid = "019ad6f2-3c41-7a05-9f3e-0a1b2c3d4e5f"

    @Test func aUUIDKeptAsBitsWritesTheSameCharacters() {
        let fromBits = DecisionID(uuidHigh: 0x019a_d6f2_3c41_7a05, low: 0x9f3e_0a1b_2c3d_4e5f)
        #expect(fromBits.description == Self.uuid)
        #expect(DecisionID(Self.uuid) == fromBits)
        #expect(DecisionID(Self.uuid).hashValue == fromBits.hashValue)
        var out = ByteWriter()
        fromBits.write(into: &out)
        fromBits.writeJSONString(into: &out)
        #expect(out.withBytes { String(decoding: $0, as: UTF8.self) } == Self.uuid + "\"" + Self.uuid + "\"")
    }

    /// Texts that are not a UUID in canonical form stay as they are: equal only to the same text.
    @Test(arguments: [
        "d1", "", "019AD6F2-3C41-7A05-9F3E-0A1B2C3D4E5F", "019ad6f2-3c41-7a05-9f3e-0a1b2c3d4e5",
        "019ad6f2-3c41-7a05-9f3e-0a1b2c3d4e5f0",
        "019ad6f2_3c41-7a05-9f3e-0a1b2c3d4e5f", "019ad6f2-3c41-7a05-9f3e-0a1b2c3d4e5g",
        "019ad6f23c41-7a05-9f3e-0a1b2c3d4e5f-",
        "quote\" and \\ and \u{1}", "caf\u{E9}-3c41-7a05-9f3e-0a1b2c3d4e5f",
    ])
    func otherTextsAreKeptAsText(text: String) throws {
        let id = DecisionID(text)
        #expect(id.description == text)
        #expect(id != DecisionID(Self.uuid))
        #expect(id == DecisionID(text))
        var out = ByteWriter()
        id.writeJSONString(into: &out)
        #expect(try JSON.parse(out.withBytes { Array($0) }) == .string(text))
    }

    /// A decision whose id is a UUID writes it as text, and reads back equal, with the same id kept as bits.
    @Test func decisionsWithEitherFormRoundTripThroughJSON() throws {
        for text in [Self.uuid, "d1", "quote\" \\"] {
            var decision = try S.resolve(S.p("cart.offer", ["id": .string("SUMMER")]), nil).decision
            decision.id = text
            #expect(decision.id == text)
            #expect(decision.decisionID == DecisionID(text))
            let written = decision.jsonText
            #expect(try written.parsed()["id"] == .string(text))
            #expect(written.bytes == Array(decision.json.serialized.utf8))
            let decoded = try Decision(json: try written.parsed(), graph: S.graph)
            #expect(decoded == decision)
            #expect(decoded.decisionID == decision.decisionID)
        }
    }
}
