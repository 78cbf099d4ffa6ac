import CoordinatorGraph
import DeepLink
import Testing

/// Which page a request leads to before the walk: a matching pattern, the fallback, or no route.
@Suite struct GraphTargetTests {
    static func graph(fallback: String?) -> Graph? {
        ConfigTest.graph(
            """
            version: 1
            app:
              name: Test
              schemes: [test]
              hosts: [test.example.com]
            """ + (fallback.map { "\n  fallback: \($0)" } ?? "") + """

                coordinators:
                  app: { kind: app, children: [main], root: main }
                  main: { kind: stack, pages: { home: /home, item(id: Int): /items/{id} } }

                """)
    }

    func target(_ link: String, fallback: String?) throws -> Result<RoutingTarget, TargetError> {
        let graph = try #require(Self.graph(fallback: fallback))
        return graph.target(for: [LinkCandidate(format: .link, field: "link", target: .link(link))])
    }

    @Test func matchingLinkIsRouted() throws {
        let found = try target("test://items/4", fallback: nil).get()
        #expect(found.outcome == .routed)
        #expect(found.page?.description == "main.item(id: 4)")
    }

    @Test func ownedLinkThatMatchesNoPatternWithoutAFallbackIsNoRoute() throws {
        for link in ["test://nothing/here", "test://items/four", "https://test.example.com/nothing"] {
            guard case .failure(let error) = try target(link, fallback: nil) else {
                Issue.record("\(link) was routed")
                continue
            }
            #expect(error.link == link)
            #expect(error.description.hasPrefix("no route for '\(link)'"))
        }
    }

    @Test func ownedLinkThatMatchesNoPatternTakesTheFallback() throws {
        let found = try target("test://nothing/here", fallback: "main.home").get()
        #expect(found.outcome == .fallback)
        #expect(found.page?.description == "main.home")
        #expect(found.source?.link == "test://nothing/here")
    }

    @Test func refusedLinkTakesTheFallbackWithWhyAsItsWarning() throws {
        let cases = [
            ("other://home", "scheme 'other:' is not allowed"),
            ("https://evil.example.com/home", "host 'evil.example.com' is not allowed"),
            ("http://test.example.com/home", "'http:' links are not accepted"),
        ]
        for (link, why) in cases {
            let found = try target(link, fallback: "main.home").get()
            #expect(found.outcome == .fallback)
            #expect(found.page?.description == "main.home")
            #expect(found.warnings.count == 1)
            #expect(found.warnings.first?.hasPrefix("link: '\(link)' is refused: ") == true, "\(found.warnings)")
            #expect(found.warnings.first?.contains(why) == true, "\(found.warnings)")
        }
    }

    @Test func refusedLinkWithoutAFallbackIsNoRouteWithTheSameReason() throws {
        guard case .failure(let error) = try target("http://test.example.com/home", fallback: nil) else {
            Issue.record("routed")
            return
        }
        let fallback = try target("http://test.example.com/home", fallback: "main.home").get()
        #expect(error.reasons == fallback.warnings)
    }
}
