import JSON
import RouterContract
import Testing

@testable import Varlink

@Suite struct VarlinkReplyTests {
    private func text(_ reply: VarlinkReply) -> String {
        var out: [UInt8] = []
        reply.encode(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    @Test func aReplyIsEncodedWithItsTerminator() {
        #expect(text(VarlinkReply(parameters: ["existed": true])) == "{\"parameters\":{\"existed\":true}}\0")
    }

    @Test func aContinuingReplySaysSo() {
        #expect(text(VarlinkReply(parameters: [:], continues: true)) == "{\"parameters\":{},\"continues\":true}\0")
    }

    @Test func anErrorReplyCarriesItsNameAndParameters() {
        let reply = VarlinkError.invalidParameter("device").reply
        #expect(
            text(reply)
                == "{\"parameters\":{\"parameter\":\"device\"},\"error\":\"org.varlink.service.InvalidParameter\"}\0")
        #expect(reply.varlinkError == .invalidParameter("device"))
    }

    @Test func preSerializedParametersAreSpliced() {
        var out: [UInt8] = []
        VarlinkReply.encode(parametersJSON: Array(#"{"decision":{"id":"x"}}"#.utf8), continues: true, into: &out)
        #expect(
            String(decoding: out, as: UTF8.self)
                == "{\"parameters\":{\"decision\":{\"id\":\"x\"}},\"continues\":true}\0")
    }

    /// A routing call's reply, written around the decision's text, is the one-member reply; appended after what
    /// the output already holds.
    @Test func decisionRepliesAreTheOneMemberReply() {
        for text in [#"{"id":"x"}"#, "{}", #"{"trace":["a \"b\""]}"#] {
            var general: [UInt8] = Array("earlier\0".utf8)
            var decision = general
            VarlinkReply.encode(member: "decision", valueJSON: Array(text.utf8), into: &general)
            VarlinkReply.encodeDecision(valueJSON: Array(text.utf8), into: &decision)
            #expect(decision == general)
            #expect(String(decoding: decision, as: UTF8.self) == "earlier\0{\"parameters\":{\"decision\":\(text)}}\0")
        }
    }

    @Test(arguments: [
        VarlinkReply(parameters: ["a": [1, 2.5, "x", nil, ["k": false]]]),
        VarlinkReply(parameters: [:], continues: true),
        VarlinkReply(error: .expectedMore),
        VarlinkReply(error: .noRoute(link: "shop://nowhere", reasons: ["link: no pattern matches 'shop://nowhere'"])),
    ])
    func encodedRepliesDecodeBackEqual(reply: VarlinkReply) throws {
        var out: [UInt8] = []
        reply.encode(into: &out)
        #expect(try VarlinkReply(frame: Array(out.dropLast())) == reply)
    }

    @Test func decodingToleratesUnknownKeysAndMissingParameters() throws {
        let reply = try VarlinkReply(frame: Array(#"{"error":"a.b.Failed","extra":1}"#.utf8))
        #expect(reply.error == "a.b.Failed")
        #expect(reply.parameters.isEmpty)
    }

    @Test(arguments: [
        ("[]", VarlinkProtocolError.Code.notAnObject),
        ("{", .invalidJSON),
        (#"{"parameters":[]}"#, .invalidParameters),
        (#"{"continues":"yes"}"#, .invalidFlag),
        (#"{"error":7}"#, .invalidErrorName),
    ])
    func malformedRepliesAreRejected(text: String, code: VarlinkProtocolError.Code) {
        let error = #expect(throws: VarlinkProtocolError.self) { try VarlinkReply(frame: Array(text.utf8)) }
        #expect(error?.code == code)
    }

    @Test func aJSONObjectIsFramedWithNul() {
        var out: [UInt8] = []
        (["a": 1] as JSONObject).appendVarlinkMessage(into: &out)
        #expect(out == Array("{\"a\":1}\0".utf8))
    }
}
