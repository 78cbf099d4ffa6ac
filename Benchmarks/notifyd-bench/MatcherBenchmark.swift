import DeepLink
import Foundation

/// `notifyd-bench matcher [--runs N] [--seconds S] [--links mixed,short]`: matches per second (median of several
/// runs) for flat route tables of 10, 1,000 and 10,000 patterns, each link parsed (scheme, host, split,
/// percent-decoding) and matched. Two link sets: `mixed` (every pattern shape, universal links, queries with
/// typed bindings, catch-alls, and links that match nothing) and `short` (`shop://section7/items/123` and
/// `shop://section7`, the links most notifications carry).
func runMatcherBenchmark(_ arguments: [String]) {
    var runs = 7
    var seconds = 0.3
    var sizes = [10, 1_000, 10_000]
    var sets: [MatcherBenchTable.LinkSet] = [.mixed, .short]
    var profileRounds: Int?
    var i = 0
    while i < arguments.count {
        let value = i + 1 < arguments.count ? arguments[i + 1] : ""
        switch arguments[i] {
        case "--runs": runs = max(1, Int(value) ?? runs)
        case "--seconds": seconds = max(0.01, Double(value) ?? seconds)
        case "--sizes": sizes = value.split(separator: ",").compactMap { Int($0) }
        case "--links":
            sets = value.split(separator: ",").compactMap { MatcherBenchTable.LinkSet(rawValue: String($0)) }
        case "--profile": profileRounds = max(1, Int(value) ?? 10)
        default:
            print(
                "usage: notifyd-bench matcher [--runs N] [--seconds S] [--sizes 10,1000,10000] [--links mixed,short]"
                    + " [--profile ROUNDS]")
            exit(2)
        }
        i += 2
    }
    if let rounds = profileRounds {
        // A fixed amount of work for `valgrind --tool=callgrind`: ROUNDS passes over the links of each table.
        for set in sets {
            for size in sizes {
                let table = MatcherBenchTable(routeCount: size, links: set)
                print("\(set) links, routes \(size): \(table.profile(rounds: rounds)) matches")
            }
        }
        return
    }
    print("matcher: \(runs) runs of ≈\(seconds) s of thread CPU time each, median shown; one core")
    print("links   routes    links  matched   matches/s    ns/match   vs first")
    // Runs alternate between the tables so that load from other processes falls on all of them alike.
    let tables = sets.flatMap { set in sizes.map { MatcherBenchTable(routeCount: $0, links: set) } }
    var rates = Array(repeating: [Double](), count: tables.count)
    for _ in 0..<runs {
        for (i, table) in tables.enumerated() { rates[i].append(table.measure(seconds: seconds)) }
    }
    for (s, set) in sets.enumerated() {
        var baseline: Double?
        for (k, size) in sizes.enumerated() {
            let i = s * sizes.count + k
            let sorted = rates[i].sorted()
            let median = sorted[sorted.count / 2]
            baseline = baseline ?? median
            let ratio = (baseline ?? median) / median
            let name = set.rawValue + String(repeating: " ", count: max(0, 6 - set.rawValue.count))
            let counts: String = pad(size, 8) + pad(tables[i].links.count, 9) + pad(tables[i].matchedCount, 9)
            let rate: String = pad(Int(median), 12) + pad(Int(1e9 / median), 12)
            print(name + counts + rate + "      " + String(format: "%.2fx", ratio))
        }
    }
}

private func pad(_ n: Int, _ width: Int) -> String {
    let s = String(n)
    return String(repeating: " ", count: max(0, width - s.count)) + s
}

/// A generated app: `routeCount` patterns in four realistic shapes, and short links that hit them.
struct MatcherBenchTable {
    /// Which links are matched.
    enum LinkSet: String {
        case mixed
        case short
    }

    let matcher: Matcher
    let links: [String]
    /// How many of the links open a page (the rest are refused or match nothing): a check on the matcher itself,
    /// since a matcher that stopped matching would look faster.
    let matchedCount: Int

    init(routeCount: Int, links set: LinkSet = .mixed) {
        let types = ["Sort": ["price", "rating", "newest"]]
        var routes: [Route] = []
        for i in 0..<routeCount {
            let (declaration, pattern): (String, String)
            switch i % 5 {
            case 0: (declaration, pattern) = ("item\(i)(id: Int)", "/section\(i / 5)/items/{id}")
            case 1: (declaration, pattern) = ("article\(i)(slug: String)", "/section\(i / 5)/articles/{slug}")
            case 2:
                (declaration, pattern) = (
                    "reviews\(i)(slug: String, page: Int = 1, sort: Sort = price)",
                    "/section\(i / 5)/{slug}/reviews?page={page}&sort={sort}"
                )
            case 3: (declaration, pattern) = ("file\(i)(path: String)", "/section\(i / 5)/files/{path...}")
            default: (declaration, pattern) = ("home\(i)", "/section\(i / 5)")
            }
            routes.append(
                Route(
                    page: PageID(coordinator: "section\(i / 5)", name: "page\(i)"),
                    declaration: try! CaseDeclaration.parse(declaration, types: types),
                    pattern: try! LinkPattern.parse(pattern)))
        }
        matcher = Matcher(routes: routes, policy: LinkPolicy(schemes: ["shop"], hosts: ["shop.example.com"]))
        var generator = SplitMix(seed: 42)
        let sections = max(1, routeCount / 5)
        links = (0..<1_024).map { n in
            let s = Int(generator.next() % UInt64(sections))
            if set == .short {
                return n % 2 == 0 ? "shop://section\(s)/items/\(generator.next() % 100_000)" : "shop://section\(s)"
            }
            switch n % 6 {
            case 0: return "shop://section\(s)/items/\(generator.next() % 100_000)"
            case 1: return "https://shop.example.com/section\(s)/articles/summer-sale"
            case 2: return "shop://section\(s)/boots/reviews?sort=rating&page=2"
            case 3: return "shop://section\(s)/files/docs/guide.pdf"
            case 4: return "shop://section\(s)"
            default: return "shop://section\(s)/items/not-a-number"
            }
        }
        let compiled = matcher
        matchedCount = links.count { compiled.match($0).page != nil }
    }

    /// Matches every link `rounds` times; returns the number of matches.
    func profile(rounds: Int) -> Int {
        var checksum = 0
        for _ in 0..<rounds {
            for link in links { checksum &+= matcher.match(link).routeIndex ?? -1 }
        }
        if checksum == .min { print("unreachable") }
        return rounds * links.count
    }

    /// Matches the links round-robin for about `seconds` of this thread's CPU time; returns matches per CPU second.
    ///
    /// CPU time rather than wall time, so that other processes sharing the machine do not count against the matcher.
    func measure(seconds: Double) -> Double {
        var count = 0
        var checksum = 0
        let start = threadCPUTime()
        var elapsed = 0.0
        while elapsed < seconds {
            for link in links {
                let result = matcher.match(link)
                checksum &+= result.routeIndex ?? -1
            }
            count += links.count
            elapsed = threadCPUTime() - start
        }
        if checksum == .min { print("unreachable") }
        return Double(count) / elapsed
    }
}

/// This thread's CPU time in seconds.
func threadCPUTime() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// A small deterministic random generator so runs are comparable.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
