import CoordinatorGraph
import Testing

@Suite struct ValidationPatternTests {
    @Test func patternNamesMustBeLabelsOfTheCase() {
        let yaml = ValidationPagesTests.withPages(
            """
                  home: /home
                  item(id: Int): /items/{itemID}

            """)
        let findings = ConfigTest.findings(yaml)
        #expect(
            findings.map(ConfigTest.summary) == [
                "14:30 error pattern-unknown-parameter", "14:37 error pattern-unbound-parameter",
            ])
        #expect(findings[0].message.contains("'{itemID}' is not a parameter of 'item(id: Int)'"))
    }

    @Test func labelsWithoutDefaultsMustBeBoundAndDefaultsMayBeLeftOut() throws {
        let yaml = ValidationPagesTests.withPages(
            """
                  home: /home
                  list(sort: String = "name", page: Int = 1): /list?page={page}
                  search(q: String, page: Int = 1): /search?page={page}

            """)
        #expect(ConfigTest.summary(yaml) == ["15:60 error pattern-unbound-parameter"])
    }

    @Test func catchAllMustBeAString() {
        let yaml = ValidationPagesTests.withPages(
            """
                  home: /home
                  doc(path: String): /docs/{path...}
                  num(n: Int): /num/{n...}

            """)
        #expect(ConfigTest.summary(yaml) == ["15:26 error pattern-parameter-type"])
    }

    @Test func identicalPatternsAreErrorsAtTheLaterOne() {
        let yaml = ValidationPagesTests.withPages(
            """
                  home: /home
                  item(id: Int): /items/{id}
                  other(n: Int): [/others/{n}, /items/{n}]

            """)
        let findings = ConfigTest.findings(yaml)
        #expect(findings.map(ConfigTest.summary) == ["15:36 error duplicate-pattern"])
        #expect(findings.first?.message.hasSuffix("(the earlier pattern is at test.yaml:14:22)") == true)
    }

    @Test func identicalPatternsAcrossCoordinatorsAreErrors() {
        let yaml =
            ConfigTest.minimal + """
                  other: { kind: stack, parents: [main], pages: { start: /home } }

                """
        #expect(ConfigTest.summary(yaml) == ["14:58 error duplicate-pattern"])
    }

    @Test func shadowedPatternIsAWarningAndStillLoads() throws {
        let yaml = ValidationPagesTests.withPages(
            """
                  home: /home
                  any(slug: String): /items/{slug}
                  paged(slug: String, page: Int = 1): /items/{slug}?page={page}

            """)
        let loaded = try ConfigTest.load(yaml).get()
        #expect(loaded.warnings.map(ConfigTest.summary) == ["15:43 warning shadowed-pattern"])
    }

    /// Several parameters in one segment load; a `String` before a separator it may hold is a warning at its name.
    @Test func aStringBeforeASeparatorInOneSegmentIsAWarningAtItsName() {
        let yaml = """
            version: 1
            app: { name: A, schemes: [a] }
            types:
              Sort: [price, rating]
            coordinators:
              app: { kind: app, children: [s], root: s }
              s:
                kind: stack
                pages:
                  home: /home
                  product(slug: String, id: Int): /p/{slug}-{id}.html
                  day(y: Int, m: Int, d: Int): /d/{y}-{m}-{d}
                  both(a: Int, b: Int): /b/{a}{b}

            """
        let findings = ConfigTest.findings(yaml)
        #expect(findings.map(ConfigTest.summary) == ["11:43 warning ambiguous-split", "13:35 error invalid-pattern"])
        #expect(findings.first?.message.contains("a value of 'slug' (String) may hold '-'") == true)
    }

    @Test func patternShadowedThroughAnEnumOfTheSameCasesIsAWarningNamingTheEarlierOne() {
        let yaml = """
            version: 1
            app: { name: A, schemes: [a] }
            types:
              Sort: [price, rating]
              Order: [price, rating]
            coordinators:
              app: { kind: app, children: [s], root: s }
              s:
                kind: stack
                pages:
                  home: /home
                  x(s: Sort): /p/{s}
                  y(o: Order): /p/{o}
                  u(id: UUID): /u/{id}
                  v(id: String): /u/{id}

            """
        let findings = ConfigTest.findings(yaml)
        #expect(findings.map(ConfigTest.summary) == ["13:20 warning shadowed-pattern"])
        #expect(findings.first?.message.hasPrefix("pattern '/p/{o}' of s.y never matches: '/p/{s}' of s.x ") == true)
        #expect(findings.first?.message.hasSuffix("(the earlier pattern is at test.yaml:12:19)") == true)
        #expect(findings.first?.message.contains("route") == false)
    }
}
