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
        name: "matcher", summary: "link matches per second for 10, 1,000 and 10,000 routes", run: runMatcherBenchmark)
]

let arguments = Array(CommandLine.arguments.dropFirst())
if let name = arguments.first, let benchmark = benchmarks.first(where: { $0.name == name }) {
    benchmark.run(Array(arguments.dropFirst()))
} else {
    print("usage: notifyd-bench SUBCOMMAND [ARGUMENTS]\n\nsubcommands:")
    for b in benchmarks { print("  \(b.name.padding(toLength: 12, withPad: " ", startingAt: 0))\(b.summary)") }
    exit(arguments.isEmpty || arguments.first == "--help" ? 0 : 2)
}
