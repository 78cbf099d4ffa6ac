import RouterContract
import Testing
import Varlink

@testable import NotifyDaemon

@Suite struct MethodTableTests {
    @Test func everyMethodTheIDLDeclaresHasAHandlerAndNoOtherHasOne() throws {
        let table = try MethodTable(interface: RouterInterface.interface, handlers: RouterService.handlers)
        #expect(table.names == RouterInterface.interface.methods.map(\.qualifiedName))
        for name in table.names { #expect(table.method(name) != nil, "\(name)") }
        #expect(table.method("io.notifyd.Router.Nonexistent") == nil)
        #expect(table.method("Route") == nil, "methods are found by their qualified names")
    }

    @Test func aDeclaredMethodWithoutAHandlerIsNamed() {
        var handlers = RouterService.handlers
        handlers["Reload"] = nil
        #expect {
            try MethodTable(interface: RouterInterface.interface, handlers: handlers)
        } throws: { error in
            (error as? MethodTableError)?.description
                == "io.notifyd.Router: declared without a handler: Reload"
        }
    }

    @Test func aHandlerForAnUndeclaredMethodIsNamed() throws {
        var handlers = RouterService.handlers
        handlers["Rewind"] = try #require(handlers["GetGraph"])
        #expect {
            try MethodTable(interface: RouterInterface.interface, handlers: handlers)
        } throws: { error in
            (error as? MethodTableError)?.description == "io.notifyd.Router: handled but not declared: Rewind"
        }
    }

    @Test func theLanesMayAnswerOnlyRoutingDryRuns() {
        let onLanes = RouterService.handlers.filter { $0.value.placement == .laneForDeviceLessDryRun }.keys.sorted()
        #expect(onLanes == ["Resolve", "Route"])
        let privileged = RouterService.handlers.filter { $0.value.access == .privileged }.keys.sorted()
        #expect(privileged == ["ForgetDevice", "Reload", "SetState"])
    }
}
