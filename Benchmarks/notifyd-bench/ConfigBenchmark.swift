import CoordinatorGraph
import Foundation

/// `notifyd-bench config [--runs N] [--coordinators C] [--pages P] [--write PATH]`: load + validate + freeze time
/// (median of runs, wall and thread CPU) of a generated config of C coordinators and P pages (default 1,000 and
/// 10,000), as YAML and as JSON. With `--write`, the config is written to PATH instead (JSON when PATH ends in
/// `.json`, else YAML), for `notifyd --config PATH`.
func runConfigBenchmark(_ arguments: [String]) {
    var runs = 7
    var coordinators = 1_000
    var pages = 10_000
    var writePath: String?
    var i = 0
    while i < arguments.count {
        let value = i + 1 < arguments.count ? arguments[i + 1] : nil
        switch (arguments[i], value, value.flatMap { Int($0) }) {
        case ("--runs", _, let n?): runs = max(1, n)
        case ("--coordinators", _, let n?): coordinators = max(12, n)
        case ("--pages", _, let n?): pages = max(coordinators, n)
        case ("--write", let path?, _): writePath = path
        default:
            print("usage: notifyd-bench config [--runs N] [--coordinators C] [--pages P] [--write PATH]")
            exit(2)
        }
        i += 2
    }
    let config = GeneratedConfig(coordinators: coordinators, pages: pages)
    if let writePath {
        let text = writePath.lowercased().hasSuffix(".json") ? config.json : config.yaml
        guard FileManager.default.createFile(atPath: writePath, contents: Data(text.utf8)) else {
            print("cannot write \(writePath)")
            exit(1)
        }
        print("wrote \(writePath): \(coordinators) coordinators, \(pages) pages, \(text.utf8.count) bytes")
        return
    }
    print("config: \(runs) runs, median shown; one core")
    print("format   coordinators   pages   routes      bytes   wall ms    cpu ms   cpu µs/page")
    for (format, text, file) in [("yaml", config.yaml, "bench.yaml"), ("json", config.json, "bench.json")] {
        let bytes = Array(text.utf8)
        var times: [Double] = []
        var cpuTimes: [Double] = []
        var graph: Graph?
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            let cpuStart = threadCPUMilliseconds()
            let result = ConfigLoader.load(bytes, file: file)
            cpuTimes.append(threadCPUMilliseconds() - cpuStart)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            switch result {
            case .success(let loaded):
                if !loaded.warnings.isEmpty { print("warning: \(loaded.warnings.prefix(3))") }
                graph = loaded.graph
            case .failure(let error):
                print(
                    "generated \(format) config rejected:\n\(error.findings.prefix(10).map(\.description).joined(separator: "\n"))"
                )
                exit(1)
            }
        }
        times.sort()
        cpuTimes.sort()
        let median = times[times.count / 2]
        let cpu = cpuTimes[cpuTimes.count / 2]
        let pageCount = graph?.coordinators.reduce(0) { $0 + $1.pages.count } ?? 0
        print(
            format.padding(toLength: 6, withPad: " ", startingAt: 0) + pad(graph?.coordinators.count ?? 0, 15)
                + pad(pageCount, 8) + pad(graph?.matcher.routes.count ?? 0, 9) + pad(bytes.count, 11)
                + String(format: "%10.1f%10.1f%14.1f", median, cpu, cpu * 1000 / Double(max(1, pageCount))))
    }
}

/// CPU time of the calling thread: steadier than wall time on a shared machine.
private func threadCPUMilliseconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) * 1e3 + Double(t.tv_nsec) / 1e6
}

private func pad(_ n: Int, _ width: Int) -> String {
    let s = String(n)
    return String(repeating: " ", count: max(0, width - s.count)) + s
}

/// A generated shop-like config: `app` → ten tabs → stacks of pages in six shapes (literal root, typed
/// parameter, back stack, query defaults, catch-all, gated detail), a login modal, and categories. It loads
/// with no errors and no warnings.
struct GeneratedConfig {
    let yaml: String
    let json: String

    init(coordinators: Int, pages: Int) {
        let tabs = 10
        let stacks = coordinators - tabs - 2  // app, login
        var stackPages: [[(declaration: String, paths: [String], back: String?, requires: [String])]] = []
        for s in 0..<stacks {
            let count = pages / stacks + (s < pages % stacks ? 1 : 0)
            var list: [(declaration: String, paths: [String], back: String?, requires: [String])] = []
            for p in 0..<count {
                let base = "/s\(s)"
                switch p {
                case 0: list.append(("home", [base], nil, []))
                case 1: list.append(("item(id: Int)", ["\(base)/items/{id}", "\(base)/i/{id}"], nil, []))
                case 2: list.append(("article(slug: String)", ["\(base)/articles/{slug}"], "home", []))
                case 3:
                    list.append(
                        ("list(sort: Sort = price, page: Int = 1)", ["\(base)/list?sort={sort}&page={page}"], nil, []))
                case 4: list.append(("file(path: String)", ["\(base)/files/{path...}"], nil, []))
                default:
                    list.append(
                        (
                            "detail\(p)(id: Int, tab: Sort = rating)", ["\(base)/d\(p)/{id}"], "item",
                            p % 3 == 0 ? ["session"] : []
                        ))
                }
            }
            stackPages.append(list)
        }
        var y =
            "version: 1\napp:\n  name: Bench\n  schemes: [bench]\n  hosts: [bench.example.com, \"*.bench.example.com\"]\n"
        y +=
            "  fallback: s0.home\nlinks:\n  keys: [deeplink, url]\n  pendingExpiry: 600\ntypes:\n  Sort: [price, rating, newest]\n"
        y += "categories:\n"
        for s in stride(from: 0, to: stacks, by: max(1, stacks / 50)) { y += "  ITEM_\(s): s\(s).item(id: $itemId)\n" }
        y +=
            "coordinators:\n  app:\n    kind: app\n    children: [\((0..<tabs).map { "t\($0)" }.joined(separator: ", ")), login]\n"
        y += "    root: t0\n  login:\n    kind: modal\n    provides: session\n    pages:\n      login: /login\n"
        for t in 0..<tabs {
            let children = stride(from: t, to: stacks, by: tabs).map { "s\($0)" }
            y +=
                "  t\(t):\n    kind: tabs\n    children: [\(children.joined(separator: ", "))]\n    root: \(children[0])\n"
        }
        for (s, list) in stackPages.enumerated() {
            y += "  s\(s):\n    kind: stack\n    pages:\n"
            for page in list {
                if page.back == nil && page.requires.isEmpty {
                    y += "      \(page.declaration): [\(page.paths.joined(separator: ", "))]\n"
                } else {
                    y += "      \(page.declaration):\n        path: [\(page.paths.joined(separator: ", "))]\n"
                    if let back = page.back { y += "        back: \(back)\n" }
                    if !page.requires.isEmpty { y += "        requires: [\(page.requires.joined(separator: ", "))]\n" }
                }
            }
        }
        yaml = y

        func q(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
        func list(_ items: [String]) -> String { "[" + items.map(q).joined(separator: ", ") + "]" }
        var j = "{\n\"version\": 1,\n\"app\": {\"name\": \"Bench\", \"schemes\": [\"bench\"], "
        j += "\"hosts\": [\"bench.example.com\", \"*.bench.example.com\"], \"fallback\": \"s0.home\"},\n"
        j += "\"links\": {\"keys\": [\"deeplink\", \"url\"], \"pendingExpiry\": 600},\n"
        j += "\"types\": {\"Sort\": [\"price\", \"rating\", \"newest\"]},\n\"categories\": {"
        j += stride(from: 0, to: stacks, by: max(1, stacks / 50)).map {
            "\(q("ITEM_\($0)")): \(q("s\($0).item(id: $itemId)"))"
        }
        .joined(separator: ", ")
        j += "},\n\"coordinators\": {\n"
        var entries: [String] = []
        entries.append(
            "\"app\": {\"kind\": \"app\", \"children\": \(list((0..<tabs).map { "t\($0)" } + ["login"])), \"root\": \"t0\"}"
        )
        entries.append(
            "\"login\": {\"kind\": \"modal\", \"provides\": \"session\", \"pages\": {\"login\": \"/login\"}}")
        for t in 0..<tabs {
            let children = stride(from: t, to: stacks, by: tabs).map { "s\($0)" }
            entries.append(
                "\"t\(t)\": {\"kind\": \"tabs\", \"children\": \(list(children)), \"root\": \(q(children[0]))}")
        }
        for (s, pages) in stackPages.enumerated() {
            let body = pages.map { page in
                var spec = "{\"path\": \(list(page.paths))"
                if let back = page.back { spec += ", \"back\": \(q(back))" }
                if !page.requires.isEmpty { spec += ", \"requires\": \(list(page.requires))" }
                return "\(q(page.declaration)): \(spec)}"
            }
            entries.append("\"s\(s)\": {\"kind\": \"stack\", \"pages\": {\n  \(body.joined(separator: ",\n  "))}}")
        }
        j += entries.joined(separator: ",\n") + "\n}\n}\n"
        json = j
    }
}
