import JSON
import Testing
import Varlink

/// A call read from a tape is the call the tree reads, and only frames the tree accepts give one.
@Suite struct VarlinkCallViewTests {
    /// The view of `text`'s call as a tree, or `nil` when the tape or the view leaves it alone.
    static func viewedCall(_ text: String) -> VarlinkCall? {
        let bytes = Array(text.utf8)
        var tape = JSONTape()
        return bytes.withUnsafeBytes { raw in
            guard tape.parse(raw) else { return nil }
            return tape.withRoot(raw) { root in VarlinkCallView(root)?.call }
        }
    }

    @Test(arguments: [
        #"{"method":"io.notifyd.Router.Route","parameters":{"dryRun":true,"payload":{"aps":{}}}}"#,
        #"{"method":"io.notifyd.Router.GetStats"}"#,
        #"{"parameters":{},"method":"org.varlink.service.GetInfo","oneway":true,"more":false,"upgrade":false}"#,
        #"{"method":"io.notifyd.Router.Monitor","more":true,"parameters":{"a":[1,{"b":null}]}}"#,
    ])
    func aValidCallReadsAsTheTreeReadsIt(_ text: String) throws {
        let viewed = try #require(Self.viewedCall(text))
        #expect(viewed == (try VarlinkCall(frame: Array(text.utf8))))
    }

    @Test(arguments: [
        #"{"method":"Route"}"#, #"{"method":1}"#, #"{"parameters":{}}"#, #"{"method":"a.b.C","parameters":[]}"#,
        #"{"method":"a.b.C","oneway":1}"#, #"{"method":"a.b.C","more":"yes"}"#, #"{"method":"a.b.C","upgrade":null}"#,
        #"{"method":"a.b.C","extra":true}"#, #"["method"]"#, #"{"method":"a.b.\u0043"}"#,
    ])
    func aFrameTheTreeRejectsOrSpellsUnusuallyGivesNoView(_ text: String) {
        #expect(Self.viewedCall(text) == nil)
    }

    @Test func theParametersStayOnTheTape() throws {
        let text = #"{"method":"io.notifyd.Router.Resolve","parameters":{"link":"shop://cart","dryRun":true}}"#
        let bytes = Array(text.utf8)
        var tape = JSONTape()
        try bytes.withUnsafeBytes { raw in
            let parsed = tape.parse(raw)
            try #require(parsed)
            tape.withRoot(raw) { root in
                let view = VarlinkCallView(root)
                #expect(view?.method.isString("io.notifyd.Router.Resolve") == true)
                #expect(view?.parameters?["link"]?.stringValue == "shop://cart")
                #expect(view?.parameters?["dryRun"]?.boolValue == true)
                #expect(view?.oneway == false)
            }
        }
    }
}
