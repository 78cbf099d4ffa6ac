import JSON
import RouterContract
import Testing

@testable import Varlink

@Suite struct ServiceDescriptionTests {
    let service = ServiceDescription(
        vendor: "notifyd", product: "notifyd", version: "1.0.0", url: "https://example.com/notifyd",
        interfaces: [RouterInterface.interface])

    @Test func getInfoListsTheServiceInterfaceFirst() throws {
        let reply = try #require(service.reply(toServiceCall: VarlinkCall(method: "org.varlink.service.GetInfo")))
        #expect(reply.error == nil)
        #expect(
            reply.parameters == [
                "vendor": "notifyd", "product": "notifyd", "version": "1.0.0", "url": "https://example.com/notifyd",
                "interfaces": ["org.varlink.service", "io.notifyd.Router"],
            ])
        let getInfo = try #require(VarlinkServiceInterface.interface.method(named: "GetInfo"))
        try VarlinkServiceInterface.interface.validate(reply: reply.parameters, for: getInfo)
    }

    @Test func getInterfaceDescriptionServesTheTextVerbatim() throws {
        let call = VarlinkCall(
            method: "org.varlink.service.GetInterfaceDescription", parameters: ["interface": "io.notifyd.Router"])
        let reply = try #require(service.reply(toServiceCall: call))
        #expect(reply.parameters == ["description": .string(RouterInterface.idl)])
    }

    @Test(arguments: [
        (
            VarlinkCall(method: "org.varlink.service.GetInterfaceDescription", parameters: ["interface": "a.b"]),
            VarlinkError.interfaceNotFound("a.b")
        ),
        (VarlinkCall(method: "org.varlink.service.GetInterfaceDescription"), .invalidParameter("interface")),
        (
            VarlinkCall(method: "org.varlink.service.GetInterfaceDescription", parameters: ["interface": 1]),
            .invalidParameter("interface")
        ),
        (VarlinkCall(method: "org.varlink.service.GetInfo", parameters: ["x": 1]), .invalidParameter("x")),
        (VarlinkCall(method: "org.varlink.service.Reboot"), .methodNotFound("org.varlink.service.Reboot")),
    ])
    func badServiceCallsGetStandardErrors(call: VarlinkCall, error: VarlinkError) throws {
        let reply = try #require(service.reply(toServiceCall: call))
        #expect(reply.varlinkError == error)
    }

    @Test func callsToOtherInterfacesAreLeftToTheCaller() {
        #expect(service.reply(toServiceCall: VarlinkCall(method: "io.notifyd.Router.GetStats")) == nil)
    }

    @Test func validateResolvesTheMethodAndChecksParameters() throws {
        let (interface, method) = try service.validate(
            VarlinkCall(method: "io.notifyd.Router.Resolve", parameters: ["link": "shop://cart"]))
        #expect(interface.name == "io.notifyd.Router")
        #expect(method.name == "Resolve")
        #expect(throws: VarlinkError.interfaceNotFound("io.other.Thing")) {
            try service.validate(VarlinkCall(method: "io.other.Thing.Do"))
        }
        #expect(throws: VarlinkError.methodNotFound("io.notifyd.Router.Do")) {
            try service.validate(VarlinkCall(method: "io.notifyd.Router.Do"))
        }
        #expect(throws: VarlinkError.invalidParameter("link")) {
            try service.validate(VarlinkCall(method: "io.notifyd.Router.Resolve"))
        }
    }
}
