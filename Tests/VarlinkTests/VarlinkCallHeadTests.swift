import Testing
import Varlink

/// Rule 7 of the payload contract: a call nested past the limit still names its method, its flags and the
/// parameter that went too deep, so that it gets a typed error reply.
@Suite struct VarlinkCallHeadTests {
    static func head(_ text: String, maxDepth: Int = 4) -> VarlinkCallHead? {
        Array(text.utf8).withUnsafeBytes { VarlinkCallHead(tooDeep: $0, maxDepth: maxDepth) }
    }

    static func nested(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }

    @Test func aDeepParameterIsNamedWithTheMethodAndTheByteWhereTheLimitWasPassed() throws {
        let text = #"{"method":"io.notifyd.Router.Route","parameters":{"device":"d","payload":"# + Self.nested(5) + "}}"
        let head = try #require(Self.head(text))
        #expect(head.method == "io.notifyd.Router.Route")
        #expect(!head.oneway)
        #expect(head.parameter == "payload")
        // Depth 1 is the call, 2 its parameters, 3 to 7 the payload's brackets: the fifth bracket passes 4.
        let firstBracket = try #require(text.utf8.firstIndex(of: UInt8(ascii: "[")))
        #expect(head.offset == text.utf8.distance(from: text.utf8.startIndex, to: firstBracket) + 2)
    }

    @Test func onewayIsReadWhereverItStands() throws {
        let after = #"{"method":"a.b.C","parameters":{"x":"# + Self.nested(4) + #"},"oneway":true}"#
        #expect(try #require(Self.head(after)).oneway)
        let before = #"{"oneway":true,"method":"a.b.C","parameters":{"x":"# + Self.nested(4) + "}}"
        #expect(try #require(Self.head(before)).oneway)
        let notOneway = #"{"oneway":false,"method":"a.b.C","parameters":{"x":"# + Self.nested(4) + "}}"
        #expect(try #require(Self.head(notOneway)).oneway == false)
    }

    @Test func escapedMethodNamesAndKeysAreDecodedAndStringsHidingBracketsAreSkipped() throws {
        let text = #"{"method":"a.b.\u0043","parameters":{"note":"[[[[[[\"{{{{","x":"# + Self.nested(4) + "}}"
        let head = try #require(Self.head(text))
        #expect(head.method == "a.b.C")
        #expect(head.parameter == "x")
    }

    @Test func nestingOutsideTheParametersHasNoParameter() throws {
        let text = #"{"method":"a.b.C","extra":"# + Self.nested(4) + "}"
        let head = try #require(Self.head(text))
        #expect(head.method == "a.b.C")
        #expect(head.parameter == nil)
    }

    @Test(arguments: [
        // Not too deep.
        #"{"method":"a.b.C","parameters":{"x":[[]]}}"#,
        // No method, or a method that is not a string.
        #"{"parameters":{"x":[[[[[]]]]]}}"#,
        #"{"method":7,"parameters":{"x":[[[[[]]]]]}}"#,
        // Not well bracketed, or cut in a string.
        #"{"method":"a.b.C","parameters":{"x":[[[[[]]]]]}"#,
        #"{"method":"a.b.C","parameters":{"x":[[[[[]]]]]}}}"#,
        #"{"method":"a.b.C","parameters":{"x":"[[[[["#,
    ])
    func whatCannotBeReadHasNoHead(text: String) {
        #expect(Self.head(text) == nil)
    }
}
