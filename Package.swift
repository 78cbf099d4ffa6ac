// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "notifyd",
    products: [
        .executable(name: "notifyd", targets: ["notifyd"]),
        .executable(name: "notifyctl", targets: ["notifyctl"]),
        .library(name: "DeepLink", targets: ["DeepLink"]),
        .library(name: "CoordinatorGraph", targets: ["CoordinatorGraph"]),
        .library(name: "Varlink", targets: ["Varlink"]),
    ],
    targets: [
        // Pure libraries: no I/O, no globals, no clocks, and no unsafe flags, so that each product can be a dependency.
        .target(name: "JSON", dependencies: ["CPlainBytes", "CJSONTape"]),
        .target(name: "DeepLink", dependencies: ["JSON"]),
        .target(name: "CoordinatorGraph", dependencies: ["DeepLink", "JSON", "CYAML"]),
        .target(name: "Varlink", dependencies: ["JSON"]),
        // notifyd's own varlink contract, io.notifyd.Router: the IDL file that ships, embedded at build time, its
        // errors and its decision reply. The daemon and notifyctl share it; the Varlink library serves any interface.
        .target(
            name: "RouterContract", dependencies: ["Varlink", "JSON"],
            resources: [.embedInCode("io.notifyd.Router.varlink")]
        ),

        // C libraries from Debian's -dev packages, one shim each.
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        // PostgreSQL's client library, for `--store postgresql://…` (docs/scaling.md).
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // The daemon's allocator: faster than the C library's for the small, short-lived allocations of a request,
        // and for freeing on one thread what another allocated (the journal and the store free the loop's).
        .systemLibrary(name: "CMimalloc", providers: [.apt(["libmimalloc-dev"])]),
        // Sixteen bytes of a JSON string looked at in one go (SSE2), inline in the JSON reader and writer.
        .target(name: "CPlainBytes"),
        // The JSON tape's reader for the usual documents, in C so that its state stays in registers.
        .target(name: "CJSONTape", dependencies: ["CPlainBytes"]),
        // Linux calls that need _GNU_SOURCE (accept4, struct ucred), compiled in C.
        .target(name: "CSyscalls"),

        // The two commands.
        .target(
            name: "NotifyDaemon",
            dependencies: [
                "JSON", "DeepLink", "CoordinatorGraph", "Varlink", "RouterContract", "CSQLite", "CLibPQ", "CSystemd",
                "CSyscalls", "CPlainBytes",
            ],
            // The release build leaves out the run-time check that two accesses to a class's stored property do not
            // overlap (≈ 16 per request, 65 instructions each: the service's counters, batches and queues). Debug
            // builds, which every test runs, keep it, and the compile-time check stays in both.
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]
        ),
        .executableTarget(
            name: "notifyd", dependencies: ["NotifyDaemon", "CMimalloc"],
            // Named on the link's command line too, not only by the module map: a link-time-optimized release build
            // takes a module map's libraries after the C library's, whose malloc would then serve the process.
            linkerSettings: [.linkedLibrary("mimalloc")]
        ),
        // notifyctl: the command table, parsing and printing live in NotifyctlCore (unit-tested); the executable
        // only wires it to the process.
        .target(
            name: "NotifyctlCore", dependencies: ["JSON", "DeepLink", "CoordinatorGraph", "Varlink", "RouterContract"]
        ),
        .executableTarget(name: "notifyctl", dependencies: ["NotifyctlCore"]),

        // Benchmarks print figures; they are never timed tests.
        .executableTarget(
            name: "notifyd-bench",
            dependencies: ["JSON", "DeepLink", "CoordinatorGraph", "Varlink", "RouterContract", "NotifyDaemon"],
            path: "Benchmarks/notifyd-bench"
        ),

        .testTarget(name: "JSONTests", dependencies: ["JSON", "CJSONTape"]),
        .testTarget(name: "DeepLinkTests", dependencies: ["DeepLink", "JSON"]),
        .testTarget(name: "CoordinatorGraphTests", dependencies: ["CoordinatorGraph", "DeepLink", "JSON"]),
        .testTarget(name: "VarlinkTests", dependencies: ["Varlink", "RouterContract", "JSON"]),
        .testTarget(
            name: "NotifyctlTests",
            dependencies: ["NotifyctlCore", "CoordinatorGraph", "DeepLink", "Varlink", "RouterContract", "JSON"],
            exclude: ["Golden"]
        ),
        .testTarget(
            name: "NotifyDaemonTests",
            dependencies: ["NotifyDaemon", "Varlink", "RouterContract", "JSON", "CoordinatorGraph", "DeepLink"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
