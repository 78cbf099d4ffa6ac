import JSON
import RouterContract
import Testing

@testable import Varlink

/// ``ServiceDescription`` resolves a call by comparing its method's bytes with a table built once; these tests hold
/// the table to the lookups by name it stands in for.
@Suite struct MethodResolutionTests {
    static let first = try! VarlinkInterface.parse(
        "interface io.example.Twice\nmethod Ping(n: int) -> ()\nmethod Echo(text: string) -> (text: string)\n")
    static let second = try! VarlinkInterface.parse(
        "interface io.example.Twice\nmethod Ping(n: string) -> ()\nmethod Other() -> ()\n")
    static let service = ServiceDescription(
        vendor: "v", product: "p", version: "1", url: "u", interfaces: [first, second, RouterInterface.interface])

    @Test func everyDeclaredMethodResolvesAsItsNameDoes() throws {
        for interface in Self.service.interfaces {
            for method in interface.methods {
                let slow = Self.service.interface(named: interface.name)?.method(named: method.name)
                let call = VarlinkCall(method: method.qualifiedName)
                do {
                    let resolved = try Self.service.validate(call)
                    #expect(resolved.1 == slow, "\(method.qualifiedName)")
                } catch {
                    // Parameters missing, or (the second io.example.Twice) a method its name does not reach.
                    #expect(
                        error == (slow == nil ? .methodNotFound(method.qualifiedName) : error),
                        "\(method.qualifiedName)")
                    #expect(slow == nil || error.name == "org.varlink.service.InvalidParameter")
                }
            }
        }
    }

    @Test func theFirstInterfaceOfANameWins() throws {
        // The second io.example.Twice declares Ping(n: string) and Other: neither is reachable.
        let (interface, method) = try Self.service.validate(
            VarlinkCall(method: "io.example.Twice.Ping", parameters: ["n": 1]))
        #expect(interface.methods.map(\.name) == ["Ping", "Echo"])
        #expect(method.input == [VarlinkField(name: "n", type: .int)])
        #expect(throws: VarlinkError.invalidParameter("n")) {
            try Self.service.validate(VarlinkCall(method: "io.example.Twice.Ping", parameters: ["n": "1"]))
        }
        #expect(throws: VarlinkError.methodNotFound("io.example.Twice.Other")) {
            try Self.service.validate(VarlinkCall(method: "io.example.Twice.Other"))
        }
    }

    @Test(arguments: [
        ("io.example.Twice.Pin", VarlinkError.methodNotFound("io.example.Twice.Pin")),
        ("io.example.Twice.Pingg", .methodNotFound("io.example.Twice.Pingg")),
        ("io.example.TwicE.Ping", .interfaceNotFound("io.example.TwicE")),
        ("io.example.Twice", .interfaceNotFound("io.example")),
        ("Ping", .interfaceNotFound("Ping")),
        ("", .interfaceNotFound("")),
        ("io.notifyd.Router.Route", .invalidParameter("payload")),
        ("org.varlink.service.GetInfo", .invalidParameter("x")),
    ])
    func unresolvedNamesGetTheErrorsTheyAlwaysGot(method: String, error: VarlinkError) {
        let parameters: JSONObject = method.hasSuffix("GetInfo") ? ["x": 1] : [:]
        #expect(throws: error) { try Self.service.validate(VarlinkCall(method: method, parameters: parameters)) }
    }

    @Test func callsAreSplitAtTheirLastDot() {
        let call = VarlinkCall(method: "io.notifyd.Router.Route")
        #expect(call.interface == "io.notifyd.Router")
        #expect(call.memberName == "Route")
        #expect(VarlinkCall(method: "Route").interface == "Route")
        #expect(VarlinkCall(method: "Route").memberName == "Route")
        #expect(VarlinkCall(method: "é.ü.Ä").interface == "é.ü")
        #expect(VarlinkCall(method: "é.ü.Ä").memberName == "Ä")
        #expect(VarlinkCall(method: "a.b.").memberName == "")
    }

    @Test func serviceCallsAreRecognizedWithOrWithoutTheTable() throws {
        #expect(Self.service.reply(toServiceCall: VarlinkCall(method: "io.notifyd.Router.Route")) == nil)
        #expect(Self.service.reply(toServiceCall: VarlinkCall(method: "io.example.Twice.Nothing")) == nil)
        let unknown = try #require(Self.service.reply(toServiceCall: VarlinkCall(method: "org.varlink.service.X")))
        #expect(unknown.varlinkError == .methodNotFound("org.varlink.service.X"))
        let info = try #require(Self.service.reply(toServiceCall: VarlinkCall(method: "org.varlink.service.GetInfo")))
        #expect(info.error == nil)
    }

    @Test func violationPathsAreTheSameWhetherTopLevelOrNested() throws {
        let router = RouterInterface.interface
        let route = try #require(router.method(named: "Route"))
        let unknown = #expect(throws: ParameterViolation.self) {
            try router.validate(parameters: ["payload": [:], "devic": "d"], for: route)
        }
        #expect(unknown?.path == "devic")
        #expect(unknown?.parameter == "devic")
        let missing = #expect(throws: ParameterViolation.self) { try router.validate(parameters: [:], for: route) }
        #expect(missing?.path == "payload")
        let wrong = #expect(throws: ParameterViolation.self) {
            try router.validate(parameters: ["payload": [:], "dryRun": "yes"], for: route)
        }
        #expect(wrong?.path == "dryRun")
        #expect(wrong?.reason == "expected a boolean, found string")
        let setState = try #require(router.method(named: "SetState"))
        let nested = #expect(throws: ParameterViolation.self) {
            try router.validate(parameters: ["device": "d", "state": ["bogus": 1]], for: setState)
        }
        #expect(nested?.parameter == "state")
        #expect(nested?.path == "state.bogus")
        let value = #expect(throws: ParameterViolation.self) {
            try router.validate(JSON.array([1, "x"]), as: .array(.int), path: "list")
        }
        #expect(value?.path == "list[1]")
    }
}
