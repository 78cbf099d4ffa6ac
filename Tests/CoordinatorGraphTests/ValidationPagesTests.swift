import CoordinatorGraph
import DeepLink
import Testing

@Suite struct ValidationPagesTests {
    /// `minimal` with the page lines of `main` replaced by `pages` (each line indented 6 spaces), from line 13.
    static func withPages(_ pages: String, extra: String = "") -> String {
        ConfigTest.minimal.replacingFirst("      home: /home\n", with: pages) + extra
    }

    @Test func requiresWithoutProviderIsAnError() {
        let yaml = Self.withPages(
            """
                  home: /home
                  vip: { path: /vip, requires: [session, member] }

            """,
            extra: """
                  login: { kind: modal, parents: [main], provides: [session], pages: { login: /login } }

                """)
        let findings = ConfigTest.findings(yaml)
        #expect(findings.map(ConfigTest.summary) == ["14:46 error unprovided-condition"])
        #expect(
            findings.first?.message
                == "no coordinator provides 'member'; add 'provides: member' to the flow that satisfies it")
    }

    @Test func providerThatRequiresWhatItProvidesIsAnError() {
        let yaml =
            ConfigTest.minimal + """
                  login: { kind: modal, parents: [main], requires: [session], provides: [session], pages: { l: /l } }

                """
        #expect(ConfigTest.summary(yaml) == ["14:53 error self-gated"])
    }

    @Test func duplicateCaseNamesInACoordinator() {
        let yaml = Self.withPages(
            """
                  home: /home
                  item(id: Int): /items/{id}
                  item(code: String): /codes/{code}

            """)
        let findings = ConfigTest.findings(yaml)
        #expect(findings.map(ConfigTest.summary) == ["15:7 error duplicate-page"])
        #expect(findings.first?.message.contains("already declared in 'main' at 14:7") == true)
    }

    @Test func backMustNameAPageOfTheSameCoordinator() {
        let yaml = Self.withPages(
            """
                  home: /home
                  a: { path: /a, back: other.x }
                  b: { path: /b, back: hom }
                  c: { path: /c, back: main.home }

            """,
            extra: """
                  other: { kind: stack, parents: [main], pages: { x: /x } }

                """)
        let findings = ConfigTest.findings(yaml)
        #expect(findings.map(ConfigTest.summary) == ["14:28 error back-other-coordinator", "15:28 error unknown-page"])
        #expect(findings[1].message == "no page 'hom' in 'main' for 'back'; expected one of: home, a, b, c")
    }

    @Test func backPageArgumentsComeFromTheSameLabelsOrDefaults() throws {
        let yaml = Self.withPages(
            """
                  home: /home
                  read(slug: String, page: Int = 1): /read/{slug}
                  comments(slug: String): { path: /read/{slug}/comments, back: read }
                  byID(id: Int): { path: /id/{id}, back: read }
                  typed(slug: Int): { path: /typed/{slug}, back: read }

            """)
        let findings = ConfigTest.findings(yaml)
        #expect(findings.map(ConfigTest.summary) == ["16:46 error back-arguments", "17:54 error back-arguments"])
        #expect(findings[0].message.contains("needs 'slug', which 'byID(id: Int)' does not have"))
        #expect(findings[1].message.contains("there it is Int, not String"))
        let ok = Self.withPages(
            """
                  home: /home
                  read(slug: String, page: Int = 1): /read/{slug}
                  comments(slug: String): { path: /read/{slug}/comments, back: read }

            """)
        let graph = try #require(ConfigTest.graph(ok))
        #expect(graph.page(PageID(coordinator: "main", name: "comments"))?.back == "read")
    }

    @Test func backChainsMayNotLoop() {
        let yaml = Self.withPages(
            """
                  home: /home
                  a: { path: /a, back: b }
                  b: { path: /b, back: c }
                  c: { path: /c, back: a }
                  d: { path: /d, back: d }
                  e: { path: /e, back: a }

            """)
        let findings = ConfigTest.findings(yaml)
        #expect(findings.map(ConfigTest.summary) == ["14:28 error back-cycle", "17:28 error back-cycle"])
        #expect(
            findings[0].message
                == "back chain of 'main' loops: a → b → c → a; a back stack must end at a page without 'back'")
    }

    @Test func pagesNothingLeadsToAreWarnings() throws {
        let yaml = Self.withPages(
            """
                  home: /home
                  linked: /linked
                  beneath: []
                  above: { path: /above, back: beneath }
                  byCategory: []
                  forgotten: []

            """,
            extra: "categories: { PING: main.byCategory }\n")
        let loaded = try ConfigTest.load(yaml).get()
        #expect(loaded.warnings.map(ConfigTest.summary) == ["18:7 warning unreachable-page"])
        #expect(loaded.warnings.first?.message.contains("'main.forgotten'") == true)
    }

    @Test func flowStepsWithoutLinksAreFine() {
        let yaml =
            ConfigTest.minimal + """
                  intro: { kind: flow, parents: [main], pages: { start: /start, step2: [], step3: ~ } }

                """
        #expect(ConfigTest.summary(yaml).isEmpty)
    }
}
