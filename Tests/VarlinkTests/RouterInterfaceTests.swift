import Foundation
import RouterContract
import Testing

@testable import Varlink

@Suite struct RouterInterfaceTests {
    /// `varlink/io.notifyd.Router.varlink`, found from this file's path.
    static let idlFile = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("varlink/io.notifyd.Router.varlink")

    @Test func theServedIDLIsTheFileThatShips() throws {
        let file = try Data(contentsOf: Self.idlFile)
        #expect(Array(file) == Array(RouterInterface.idl.utf8))
    }

    @Test func qualifiedMethodNamesAreBuiltFromTheInterfaceName() {
        #expect(RouterInterface.method("Route") == "io.notifyd.Router.Route")
        #expect(RouterInterface.interface.method(named: "Route")?.qualifiedName == RouterInterface.method("Route"))
    }
}
