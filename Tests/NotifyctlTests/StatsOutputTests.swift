import Foundation
import JSON
import NotifyctlCore
import Testing

/// `stats` as a tree with units, and as Prometheus' text exposition format.
@Suite struct StatsOutputTests {
    /// A `GetStats` reply recorded from notifyd (`notifyctl --json stats` after a few decisions and errors).
    static func recorded() throws -> JSONObject {
        let data = try Data(contentsOf: Fixtures.golden.appendingPathComponent("stats-reply.json"))
        return try #require(try JSON.parse(Array(data)).objectValue)
    }

    static func run(_ arguments: [String]) throws -> Run {
        let router = FakeRouter()
        router.replies["GetStats"] = .success(try recorded())
        return Fixtures.run(arguments, router: router)
    }

    @Test func statsPrintsATreeWithUnits() throws {
        let run = try Self.run(["stats"])
        #expect(run.status == .success)
        Fixtures.expectGolden(run.output, "stats.txt")
        #expect(run.output.contains("├─ latency      p50 250 µs · p90 653 µs · p99 653 µs · max 653 µs\n"))
        #expect(run.output.contains("18.6 MiB resident"))
    }

    @Test func aCounterThisNotifyctlDoesNotKnowStillShows() throws {
        var stats = try #require(try Self.recorded()["stats"]?.objectValue)
        stats["replayedDecisions"] = 7
        let text = StatsPrinter(style: .plain).render(stats)
        #expect(text.contains("replayedDecisions  7\n"))
    }

    @Test func prometheusMatchesItsGolden() throws {
        let run = try Self.run(["--socket", "/run/notifyd/shop.sock", "stats", "--format", "prometheus"])
        #expect(run.status == .success)
        Fixtures.expectGolden(run.output, "stats.prom")
    }

    /// The rules of the text format (version 0.0.4) and of the textfile collector, checked line by line: each
    /// family's HELP and TYPE come once, before its samples, and its samples stand together; names are valid
    /// metric names starting `notifyd_`; counters end in `_total`; a summary has its quantiles in increasing order,
    /// then `_sum` and `_count`; every sample has the `app` label and no timestamp; the text ends with a newline.
    @Test func prometheusFollowsTheTextFormat() throws {
        let text = try Self.run(["--app", "shop", "stats", "--format", "prometheus"]).output
        #expect(text.hasSuffix("\n"))
        var types: [String: String] = [:]
        var helped: Set<String> = []
        var finished: Set<String> = []
        var current = ""
        var quantiles: [Double] = []
        let name = /[a-zA-Z_:][a-zA-Z0-9_:]*/
        for line in text.split(separator: "\n") {
            if line.hasPrefix("# HELP ") || line.hasPrefix("# TYPE ") {
                let parts = line.split(separator: " ", maxSplits: 3)
                let family = String(parts[2])
                #expect(family.wholeMatch(of: name) != nil && family.hasPrefix("notifyd_"), "\(family)")
                #expect(!finished.contains(family), "\(family) is not one group")
                if family != current { finished.insert(current) }
                current = family
                if parts[1] == "HELP" {
                    #expect(helped.insert(family).inserted, "two HELP lines for \(family)")
                    #expect(parts.count == 4 && !parts[3].isEmpty)
                } else {
                    #expect(types[family] == nil, "two TYPE lines for \(family)")
                    types[family] = String(parts[3])
                    quantiles = []
                }
                continue
            }
            let sample = line.split(separator: " ")
            #expect(sample.count == 2, "a sample is a name and a value, without timestamp: \(line)")
            let series = String(sample[0])
            let metric = String(series.prefix { $0 != "{" })
            let family = [metric, String(metric.dropLast(4)), String(metric.dropLast(6))].first { types[$0] != nil }
            #expect(family == current, "\(metric) stands outside its family")
            #expect(series.hasPrefix(metric + "{app=\"shop\""), "\(line)")
            #expect(Double(sample[1]) != nil, "\(line)")
            if types[current] == "counter" { #expect(metric.hasSuffix("_total"), "\(metric)") }
            if types[current] == "summary", let q = series.firstMatch(of: /quantile="([0-9.]+)"/) {
                let value = try #require(Double(q.1))
                #expect(quantiles.last.map { $0 < value } ?? true)
                quantiles.append(value)
            }
        }
        #expect(types["notifyd_request_duration_seconds"] == "summary")
        #expect(text.contains("notifyd_request_duration_seconds_sum{app=\"shop\"} 0.002373\n"))
        #expect(text.contains("notifyd_request_duration_seconds_count{app=\"shop\"} 9\n"))
        #expect(text.contains("notifyd_decisions_total{app=\"shop\",outcome=\"resumed\"} 0\n"))
        #expect(Set(types.keys) == helped)
    }

    @Test func theAppLabelIsTheAppOrTheSocketsName() throws {
        let plain = try Self.run(["stats", "--format", "prometheus"]).output
        #expect(plain.contains("notifyd_requests_total{app=\"notifyd\"} 10\n"))
        let made = try Self.run(["--socket", ".run/notifyd.sock", "stats", "--format", "prometheus"]).output
        #expect(made.contains("{app=\"notifyd\"}"))
        let news = try Self.run(["--app", "news", "stats", "--format", "prometheus"]).output
        #expect(news.contains("notifyd_requests_total{app=\"news\"} 10\n"))
    }

    @Test func jsonAndPrometheusAreTwoAnswersToOneQuestion() {
        let run = Fixtures.run(["stats", "--json", "--format", "prometheus"])
        #expect(run.status == .usage)
    }
}
