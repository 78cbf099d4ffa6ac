// notifyd-bench: micro-benchmarks that print figures; never timed tests.
//
// Usage: notifyd-bench SUBCOMMAND [ARGUMENTS]. Each benchmark registers one entry in `benchmarks`.

import Foundation

/// One benchmark: its subcommand, a one-line summary, and its entry point (given the remaining arguments).
struct Benchmark {
    let name: String
    let summary: String
    let run: ([String]) -> Void
}

let benchmarks: [Benchmark] = [
    Benchmark(
        name: "matcher", summary: "link matches per second for 10, 1,000 and 10,000 routes", run: runMatcherBenchmark),
    Benchmark(name: "resolver", summary: "resolver decisions per second", run: { runResolverBenchmark(arguments: $0) }),
    Benchmark(
        name: "config", summary: "load + validate a 1,000-coordinator / 10,000-page config (or --write it)",
        run: runConfigBenchmark),
    Benchmark(
        name: "payload", summary: "µs to parse and read each payload format, beside Foundation's JSON readers",
        run: runPayloadBenchmark),
    Benchmark(
        name: "store", summary: "durable decisions per second through group commit",
        run: { runStoreBenchmark(arguments: $0) }),
    Benchmark(name: "daemon", summary: "drive a running notifyd over its socket", run: runDaemonBenchmark),
    Benchmark(
        name: "eventloop", summary: "echo over socket pairs: notifyd's epoll loop beside Dispatch sources",
        run: runEventLoopBenchmark),
]

let arguments = Array(CommandLine.arguments.dropFirst())
if let name = arguments.first, let benchmark = benchmarks.first(where: { $0.name == name }) {
    benchmark.run(Array(arguments.dropFirst()))
} else {
    print("usage: notifyd-bench SUBCOMMAND [ARGUMENTS]\n\nsubcommands:")
    for b in benchmarks { print("  \(b.name.padding(toLength: 12, withPad: " ", startingAt: 0))\(b.summary)") }
    exit(arguments.isEmpty || arguments.first == "--help" ? 0 : 2)
}
