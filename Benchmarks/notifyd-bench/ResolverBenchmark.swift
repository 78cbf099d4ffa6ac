import CoordinatorGraph

/// Resolver decisions per second (work in progress).
func runResolverBenchmark(arguments: [String]) {
    print("resolver benchmark: not yet")
}
