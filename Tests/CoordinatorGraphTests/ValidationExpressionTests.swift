import CoordinatorGraph
import Testing

@Suite struct ValidationExpressionTests {
    static let pages = """
              home: /home
              item(id: Int, tab: Tab = info): /items/{id}?tab={tab}

        """

    static func config(_ tail: String) -> String {
        ValidationPagesTests.withPages(pages, extra: "types: { Tab: [info, reviews] }\n" + tail)
    }

    @Test func categoryPagesMustExist() {
        let yaml = Self.config(
            """
            categories:
              A: main.hom
              B: mian.home
              C: main.item(id: $itemId)

            """)
        let findings = ConfigTest.findings(yaml)
        #expect(findings.map(ConfigTest.summary) == ["17:6 error unknown-page", "18:6 error unknown-coordinator"])
        #expect(findings[0].message == "no page 'hom' in 'main' for category 'A'; expected one of: home, item")
    }

    @Test func categoryArgumentsMustFitTheParameters() {
        let yaml = Self.config(
            """
            categories:
              MISSING: main.item(tab: reviews)
              LABEL: main.item(id: 1, colour: red)
              TYPE: main.item(id: one)
              ENUM: main.item(id: 2, tab: photos)
              FINE: main.item(id: 3, tab: .reviews)

            """)
        let findings = ConfigTest.findings(yaml)
        #expect(
            findings.map(ConfigTest.summary) == [
                "17:12 error category-arguments", "18:10 error category-arguments", "19:9 error category-arguments",
                "20:9 error category-arguments",
            ])
        #expect(
            findings[0].message
                == "category 'MISSING' does not give 'id' of 'item(id: Int, tab: Tab = .info)'; add 'id: …' (a value or a $payloadKey)"
        )
        #expect(
            findings[1].message
                == "'colour' is not a parameter of 'item(id: Int, tab: Tab = .info)'; its labels are id, tab")
        #expect(findings[2].message == "'one' is not a valid Int for 'id' of 'item(id: Int, tab: Tab = .info)'")
    }

    @Test func malformedExpressionIsReportedWhereItIsWritten() {
        let yaml = Self.config("categories: { A: \"main.item(id: 1\" }\n")
        #expect(ConfigTest.summary(yaml) == ["16:19 error invalid-expression"])
    }

    @Test func fallbackMustNameAPageWithLiteralArguments() {
        let yaml = Self.config("").replacingFirst(
            "schemes: [test]", with: "schemes: [test]\n  fallback: main.item(id: $x)")
        let findings = ConfigTest.findings(yaml)
        #expect(findings.map(ConfigTest.summary) == ["5:13 error fallback-arguments"])
        #expect(findings.first?.message.contains("cannot read '$x'") == true)
        let unknown = Self.config("").replacingFirst(
            "schemes: [test]", with: "schemes: [test]\n  fallback: main.nothing")
        #expect(ConfigTest.summary(unknown) == ["5:13 error unknown-page"])
        let fine = Self.config("").replacingFirst(
            "schemes: [test]", with: "schemes: [test]\n  fallback: main.item(id: 1)")
        #expect(ConfigTest.summary(fine).isEmpty)
    }
}
