import Varlink

/// The `io.notifyd.Router` interface: the varlink contract of notifyd (docs/design.md §4).
///
/// The interface lives with notifyd, not in the `Varlink` library, which serves any interface: the daemon serves
/// ``idl`` verbatim from `GetInterfaceDescription` and checks calls against ``interface``; notifyctl names the
/// methods and errors it calls and reads from here.
public enum RouterInterface {
    /// The interface name, `io.notifyd.Router`.
    public static let name = "io.notifyd.Router"

    /// The interface definition text: `varlink/io.notifyd.Router.varlink`, the file that ships, embedded when the
    /// package is built (this target's `io.notifyd.Router.varlink` is a link to it).
    public static let idl = String(decoding: PackageResources.io_notifyd_Router_varlink, as: UTF8.self)

    /// The parsed interface.
    public static let interface: VarlinkInterface = {
        do {
            return try VarlinkInterface.parse(idl)
        } catch {
            preconditionFailure("the io.notifyd.Router IDL does not parse: \(error)")
        }
    }()

    /// The qualified name of a method of this interface, e.g. `io.notifyd.Router.Route`.
    public static func method(_ member: String) -> String { name + "." + member }
}
