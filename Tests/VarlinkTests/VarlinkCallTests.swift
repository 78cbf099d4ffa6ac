import JSON
import Testing

@testable import Varlink

@Suite struct VarlinkCallTests {
    private func parse(_ text: String) throws(VarlinkProtocolError) -> VarlinkCall {
        try VarlinkCall(frame: Array(text.utf8))
    }

    @Test func aFullCallIsParsed() throws {
        let call = try parse(
            #"{"method":"io.notifyd.Router.Resolve","parameters":{"link":"shop://cart"},"oneway":false,"more":true,"upgrade":false}"#
        )
        #expect(call.method == "io.notifyd.Router.Resolve")
        #expect(call.interface == "io.notifyd.Router")
        #expect(call.memberName == "Resolve")
        #expect(call.parameters == ["link": "shop://cart"])
        #expect(call.more && !call.oneway && !call.upgrade)
    }

    @Test func aCallWithOnlyAMethodHasEmptyParametersAndNoFlags() throws {
        let call = try parse(#"{"method":"org.varlink.service.GetInfo"}"#)
        #expect(call == VarlinkCall(method: "org.varlink.service.GetInfo"))
    }

    @Test(arguments: [
        ("", VarlinkProtocolError.Code.invalidJSON),
        ("{", .invalidJSON),
        ("{\"method\":\"a.b.C\"} x", .invalidJSON),
        ("[1]", .notAnObject),
        ("\"io.notifyd.Router.Route\"", .notAnObject),
        ("null", .notAnObject),
        ("{}", .missingMethod),
        (#"{"parameters":{}}"#, .missingMethod),
        (#"{"method":42}"#, .invalidMethod),
        (#"{"method":null}"#, .invalidMethod),
        (#"{"method":"Route"}"#, .invalidMethod),
        (#"{"method":"Router.Route"}"#, .invalidMethod),
        (#"{"method":"io.notifyd.Router.route"}"#, .invalidMethod),
        (#"{"method":"io.notifyd.Router."}"#, .invalidMethod),
        (#"{"method":".notifyd.Router.Route"}"#, .invalidMethod),
        (#"{"method":"io..Router.Route"}"#, .invalidMethod),
        (#"{"method":"io.notifyd.Router.Ro ute"}"#, .invalidMethod),
        (#"{"method":"io.-x.Router.Route"}"#, .invalidMethod),
        (#"{"method":"io.notifyd.Router.Route","parameters":[]}"#, .invalidParameters),
        (#"{"method":"io.notifyd.Router.Route","parameters":null}"#, .invalidParameters),
        (#"{"method":"io.notifyd.Router.Route","parameters":"x"}"#, .invalidParameters),
        (#"{"method":"io.notifyd.Router.Route","oneway":1}"#, .invalidFlag),
        (#"{"method":"io.notifyd.Router.Route","more":"true"}"#, .invalidFlag),
        (#"{"method":"io.notifyd.Router.Route","upgrade":null}"#, .invalidFlag),
        (#"{"method":"io.notifyd.Router.Route","id":1}"#, .unknownKey),
        (#"{"method":"io.notifyd.Router.Route","Method":"x"}"#, .unknownKey),
        (#"{"method":"a.b.C","method":"a.b.D"}"#, .invalidJSON),
    ])
    func malformedCallsAreRejected(text: String, code: VarlinkProtocolError.Code) {
        let error = #expect(throws: VarlinkProtocolError.self) { try parse(text) }
        #expect(error?.code == code, "\(text)")
    }

    @Test func aDeeplyNestedDocumentIsRejectedCleanly() {
        let depth = 10_000
        let text =
            #"{"method":"io.notifyd.Router.Route","parameters":{"payload":"# + String(repeating: "[", count: depth)
            + String(repeating: "]", count: depth) + "}}"
        let error = #expect(throws: VarlinkProtocolError.self) { try parse(text) }
        #expect(error?.code == .invalidJSON)
        #expect(error?.cause?.code == .tooDeep)
    }

    @Test func hyphensAndDigitsAreAllowedInInterfaceNames() throws {
        #expect(try parse(#"{"method":"org.example-1.v2.Ping"}"#).interface == "org.example-1.v2")
    }

    @Test func anEncodedCallParsesBackEqual() throws {
        let call = VarlinkCall(
            method: "io.notifyd.Router.Monitor", parameters: ["x": [1, "two", nil]], oneway: true, more: true,
            upgrade: true)
        var out: [UInt8] = []
        call.encode(into: &out)
        #expect(out.last == 0)
        #expect(try VarlinkCall(frame: Array(out.dropLast())) == call)
    }

    @Test func encodingWritesFlagsOnlyWhenSet() {
        var out: [UInt8] = []
        VarlinkCall(method: "a.b.C").encode(into: &out)
        #expect(String(decoding: out, as: UTF8.self) == "{\"method\":\"a.b.C\",\"parameters\":{}}\0")
    }
}
