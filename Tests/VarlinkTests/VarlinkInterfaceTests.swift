import RouterContract
import Testing

@testable import Varlink

@Suite struct VarlinkInterfaceTests {
    @Test func theRouterInterfaceDeclaresItsMembers() throws {
        let interface = try VarlinkInterface.parse(RouterInterface.idl)
        #expect(interface.name == "io.notifyd.Router")
        #expect(interface.doc.hasPrefix("Routing of push notifications"))
        #expect(
            interface.types.map(\.name) == [
                "Page", "Source", "Step", "Pending", "Decision", "DeviceState", "HistoryEntry",
            ])
        #expect(
            interface.methods.map(\.name) == [
                "Route", "Resolve", "FlowFinished", "GetState", "SetState", "ForgetDevice", "GetDecision",
                "ListDecisions", "ListHistory", "Monitor", "GetGraph", "GetStats", "Reload",
            ])
        #expect(
            interface.errors.map(\.name) == [
                "InvalidPayload", "NoRoute", "UnknownPage", "UnknownDevice", "DecisionNotFound", "PayloadTooLarge",
                "ConfigInvalid", "RateLimited", "InvalidState", "NotPresented", "InvalidParameter", "ProvidesNothing",
                "StateNotSaved", "StateUnreadable",
            ])
        #expect(interface.text == RouterInterface.idl)
    }

    @Test func everyMemberIsDocumented() throws {
        let interface = RouterInterface.interface
        let docs = interface.types.map(\.doc) + interface.methods.map(\.doc) + interface.errors.map(\.doc)
        #expect(!docs.contains(""))
        for type in interface.types {
            guard case .structure(let fields) = type.type else { continue }
            for field in fields { #expect(!field.doc.isEmpty, "\(type.name).\(field.name) has no doc comment") }
        }
    }

    @Test func methodSignaturesAreParsedWithTheirTypes() throws {
        let route = try #require(RouterInterface.interface.method(named: "Route"))
        #expect(route.qualifiedName == "io.notifyd.Router.Route")
        #expect(
            route.input.map(\.description) == [
                "payload: object", "device: ?string", "dryRun: ?bool", "explain: ?bool", "format: ?string",
                "strict: ?bool", "headers: ?[string]string",
            ])
        #expect(route.output.map(\.description) == ["decision: Decision"])
        let finished = try #require(RouterInterface.interface.method(named: "FlowFinished"))
        #expect(finished.output.map(\.description) == ["resumed: ?Decision", "state: DeviceState", "dropped: ?string"])
        let setState = try #require(RouterInterface.interface.method(named: "SetState"))
        #expect(setState.output.isEmpty)
    }

    @Test func typesKeepTheirStructure() throws {
        let state = try #require(RouterInterface.interface.type(named: "DeviceState"))
        guard case .structure(let fields) = state.type else {
            Issue.record("DeviceState is not a struct")
            return
        }
        #expect(
            fields.map(\.description) == [
                "path: []string", "started: []string", "tabs: [string]string", "stacks: [string][]Page",
                "conditions: []string", "pending: ?Pending",
            ])
        let step = try #require(RouterInterface.interface.type(named: "Step"))
        guard case .structure(let stepFields) = step.type else { return }
        #expect(
            stepFields.first?.type
                == .enumeration([
                    "start", "activate", "selectTab", "present", "dismiss", "popTo", "push", "setRoot", "display",
                ]))
    }

    @Test func theServiceInterfaceParses() {
        let service = VarlinkServiceInterface.interface
        #expect(service.name == "org.varlink.service")
        #expect(service.method(named: "GetInterfaceDescription")?.input.map(\.description) == ["interface: string"])
        #expect(service.error(named: "ExpectedMore")?.parameters.isEmpty == true)
    }

    @Test func nestedAnonymousStructsEnumsAndCommentsParse() throws {
        let text = """
            # Doc of the interface.
            interface org.example.test
            # A doc
            # on two lines.
            type T (
              # The first field.
              a: ?[]( x: int, y: (one, two) ),
              b: [string]?float,
              c_d: T
            )
            method M(t: T) -> ()  # trailing comment
            error E ()
            """
        let interface = try VarlinkInterface.parse(text)
        let t = try #require(interface.type(named: "T"))
        #expect(t.doc == "A doc\non two lines.")
        #expect(
            t.type.description == "(a: ?[](x: int, y: (one, two)), b: [string]?float, c_d: T)")
        guard case .structure(let fields) = t.type else { return }
        #expect(fields[0].doc == "The first field.")
        #expect(fields[1].doc == "")
        #expect(interface.doc == "Doc of the interface.")
    }

    @Test(arguments: [
        ("", 1, 1, "expected 'interface'"),
        ("interface org", 1, 11, "interface name"),
        ("interface org.example.a\nmethod m() -> ()", 2, 8, "uppercase"),
        ("interface org.example.a\nmethod M() -> (x: Missing)", 2, 19, "Missing is used but not defined"),
        ("interface org.example.a\nmethod M() (x: int)", 2, 12, "expected '->'"),
        ("interface org.example.a\ntype T (a: int, a: int)", 2, 17, "appears twice"),
        ("interface org.example.a\ntype T (a, b, a)", 2, 15, "appears twice"),
        ("interface org.example.a\nerror E ()\nerror E ()", 3, 7, "declared twice"),
        ("interface org.example.a\ntype T (a: ??int)", 2, 13, "'??'"),
        ("interface org.example.a\ntype T (a: int,)", 2, 16, "field name"),
        ("interface org.example.a\ntype T (a: int", 2, 15, "expected ',' or ')'"),
        ("interface org.example.a\nprop X ()", 2, 1, "expected 'type', 'method' or 'error'"),
        ("interface org.example.a\ntype T (a: map)", 2, 12, "expected a type"),
        ("interface org.example.a\ntype T (_a: int)", 2, 9, "field name"),
    ])
    func invalidDefinitionsAreRejectedWithTheirPosition(text: String, line: Int, column: Int, message: String) {
        let error = #expect(throws: VarlinkIDLError.self) { try VarlinkInterface.parse(text) }
        #expect(error?.line == line, "\(text)")
        #expect(error?.column == column, "\(text)")
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
    }
}
