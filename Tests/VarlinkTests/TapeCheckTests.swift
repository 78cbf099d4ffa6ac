import JSON
import RouterContract
import Testing
import Varlink

/// The IDL's check on a tape agrees with its check on a tree: what it lets through the tree's validation accepts,
/// and for the ordinary calls (no escaped keys, whole numbers) it answers as the tree does.
@Suite struct TapeCheckTests {
    /// Whether `parameters` (a JSON object's text) conform to `method` of io.notifyd.Router, on a tape and on a tree.
    static func verdicts(_ method: String, _ parameters: String) throws -> (tape: Bool, tree: Bool) {
        let interface = RouterInterface.interface
        let declared = try #require(interface.method(named: method))
        let check = VarlinkInterface.TapeCheck(interface, method: declared)
        let bytes = Array(parameters.utf8)
        var tape = JSONTape()
        let onTape: Bool? = bytes.withUnsafeBytes { raw in
            guard tape.parse(raw) else { return nil }
            return tape.withRoot(raw) { root in check.conforms(root) }
        }
        let tree = try #require(try JSON.parse(parameters).objectValue)
        let onTree = (try? interface.validate(parameters: tree, for: declared)) != nil
        return (try #require(onTape, "the tape reads \(parameters)"), onTree)
    }

    @Test(
        arguments: [
            // Route
            ("Route", #"{"payload":{"aps":{"alert":"x"}},"dryRun":true}"#, true),
            ("Route", #"{"payload":{},"device":"d-1","explain":false,"format":"apns","strict":true}"#, true),
            ("Route", #"{"payload":{},"headers":{"apns-push-type":"alert","apns-topic":"com.example"}}"#, true),
            ("Route", #"{"payload":{},"device":null,"headers":null}"#, true),
            ("Route", #"{"dryRun":true}"#, false),
            ("Route", #"{"payload":"https://example.com/x"}"#, false),
            ("Route", #"{"payload":{},"dryRun":"yes"}"#, false),
            ("Route", #"{"payload":{},"headers":{"apns-priority":10}}"#, false),
            ("Route", #"{"payload":{},"colour":"red"}"#, false),
            ("Route", #"{"payload":{},"link":"https://example.com/x"}"#, false),
            // Resolve
            ("Resolve", #"{"link":"https://shop.example.com/offer/SUMMER","dryRun":true}"#, true),
            ("Resolve", #"{"link":"x","format":"apns"}"#, false),
            ("Resolve", #"{"link":1}"#, false),
            // Named types, arrays, enums and ints
            (
                "SetState",
                #"{"device":"d","state":{"path":["app"],"started":["app"],"tabs":{},"stacks":{},"conditions":[]}}"#,
                true
            ),
            (
                "SetState",
                #"{"device":"d","state":{"path":["app"],"started":["app"],"tabs":{},"stacks":{"cart":[1]},"conditions":[]}}"#,
                false
            ),
            ("SetState", #"{"device":"d","state":{"path":["app"],"started":["app"],"tabs":{}}}"#, false),
            ("ListDecisions", #"{"limit":5}"#, true),
            ("ListDecisions", #"{"limit":"5"}"#, false),
            ("ListHistory", #"{"before":2,"since":"2026-12-01T08:00:00Z"}"#, true),
            ("GetStats", #"{}"#, true),
            ("GetStats", #"{"verbose":true}"#, false),
        ] as [(String, String, Bool?)])
    func theTapeAnswersAsTheTree(_ method: String, _ parameters: String, _ expected: Bool?) throws {
        let (tape, tree) = try Self.verdicts(method, parameters)
        #expect(tape == tree, "\(method) \(parameters): tape \(tape), tree \(tree)")
        if let expected { #expect(tape == expected) }
    }

    /// What the tape cannot judge (a number with a fraction where an int is declared, a key given twice) is left
    /// to the tree, which reads it and says what it makes of it.
    @Test(arguments: [#"{"limit":5.0}"#, #"{"limit":5,"limit":6}"#])
    func whatTheTapeCannotJudgeGoesToTheTree(_ parameters: String) throws {
        let interface = RouterInterface.interface
        let check = VarlinkInterface.TapeCheck(
            interface, method: try #require(interface.method(named: "ListDecisions")))
        let bytes = Array(parameters.utf8)
        var tape = JSONTape()
        let onTape: Bool? = bytes.withUnsafeBytes { raw in
            guard tape.parse(raw) else { return nil }
            return tape.withRoot(raw) { root in check.conforms(root) }
        }
        #expect(onTape != true)
    }
}
