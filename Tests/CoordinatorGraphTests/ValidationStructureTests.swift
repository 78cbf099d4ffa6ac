import CoordinatorGraph
import Testing

@Suite struct ValidationStructureTests {
    @Test func noAppCoordinatorIsAnError() {
        let yaml = """
            version: 1
            app: { name: T, schemes: [t] }
            coordinators:
              main: { kind: stack, pages: { home: /home } }
            """
        let findings = ConfigTest.findings(yaml)
        #expect(findings.map(ConfigTest.summary) == ["4:3 error missing-app"])
    }

    @Test func secondAppCoordinatorIsAnError() {
        let yaml =
            ConfigTest.minimal + """
                  other:
                    kind: app
                    children: [main]
                    root: main

                """
        let findings = ConfigTest.findings(yaml)
        #expect(findings.map(ConfigTest.summary) == ["15:11 error multiple-apps"])
        #expect(findings.first?.message.contains("'app' is already the root (declared at 6:3)") == true)
    }

    @Test func appAndTabsNeedChildrenAndARootAmongThem() {
        let yaml = """
            version: 1
            app: { name: T, schemes: [t] }
            coordinators:
              app: { kind: app, children: [tabs, lonely], root: home }
              tabs: { kind: tabs, children: [home] }
              home: { kind: stack, pages: { home: /home } }
              lonely: { kind: tabs }
            """
        #expect(
            ConfigTest.summary(yaml) == [
                "4:53 error root-not-child", "5:3 error missing-root", "7:3 error no-children",
            ])
    }

    @Test func rootNamingNoCoordinatorIsAnUnknownReference() {
        let yaml = ConfigTest.minimal.replacingFirst("root: main", with: "root: mian")
        let findings = ConfigTest.findings(yaml)
        #expect(findings.map(ConfigTest.summary) == ["9:11 error unknown-coordinator"])
        #expect(findings.first?.message == "unknown coordinator 'mian' in the root of 'app'; did you mean 'main'?")
    }

    @Test func kindsOwnTheirKeys() {
        let yaml = """
            version: 1
            app: { name: T, schemes: [t] }
            coordinators:
              app: { kind: app, children: [tabs], root: tabs, provides: x, pages: { a: /a } }
              tabs: { kind: tabs, children: [list, steps], root: list, parents: [] }
              list: { kind: stack, root: tabs }
              steps: { kind: flow, pages: {} }
              box: { kind: modal, parents: [list] }
            """
        #expect(
            ConfigTest.summary(yaml) == [
                "4:61 error unexpected-provides", "4:71 error unexpected-pages", "6:3 error no-pages",
                "6:30 error unexpected-root", "7:31 error no-pages", "8:3 error no-pages",
            ])
    }

    @Test func modalWithChildrenNeedsNoPages() throws {
        let yaml =
            ConfigTest.minimal.replacingFirst("children: [main]", with: "children: [main, sheet]") + """
                  sheet: { kind: modal, children: [inner] }
                  inner: { kind: stack, pages: { x: /x } }

                """
        #expect(ConfigTest.summary(yaml).isEmpty)
    }

    @Test func unknownChildrenAndParentsAreNamedWithASuggestion() {
        let yaml =
            ConfigTest.minimal.replacingFirst("children: [main]", with: "children: [main, mian, main]") + """
                  side: { kind: stack, parents: [main, nowhere, main], pages: { s: /s } }

                """
        let findings = ConfigTest.findings(yaml)
        #expect(
            findings.map(ConfigTest.summary) == [
                "8:22 error unknown-coordinator", "8:28 error duplicate-child", "14:40 error unknown-coordinator",
                "14:49 error duplicate-parent",
            ])
        #expect(findings[0].message == "unknown coordinator 'mian' in the children of 'app'; did you mean 'main'?")
        #expect(
            findings[2].message
                == "unknown coordinator 'nowhere' in the parents of 'side'; declare it under 'coordinators:'")
    }

    @Test func theAppIsNobodysChild() {
        let yaml =
            ConfigTest.minimal + """
                  loop: { kind: stack, children: [app], parents: [main], pages: { l: /l } }
                  app2: { kind: stack, pages: { x: /x } }

                """
        let summary = ConfigTest.summary(yaml.replacingFirst("kind: app", with: "kind: app\n    parents: [app2]"))
        #expect(summary.contains("8:15 error app-has-parent"))
        #expect(summary.contains("15:35 error app-has-parent"))
    }

    @Test func unreachableCoordinatorIsNamed() {
        let yaml =
            ConfigTest.minimal + """
                  island: { kind: stack, pages: { x: /x } }
                  cove: { kind: modal, parents: [island], pages: { y: /y } }

                """
        let findings = ConfigTest.findings(yaml)
        #expect(
            findings.map(ConfigTest.summary) == [
                "14:3 error unreachable-coordinator", "15:3 error unreachable-coordinator",
            ])
        #expect(findings.first?.message.hasPrefix("coordinator 'island' is unreachable from 'app'") == true)
    }

    @Test func reachableThroughParentsAlone() {
        let yaml =
            ConfigTest.minimal + """
                  sheet: { kind: modal, parents: [main], pages: { y: /y } }

                """
        #expect(ConfigTest.summary(yaml).isEmpty)
    }

    @Test func cycleThroughChildrenIsReportedOnceWhereItCloses() {
        let yaml =
            ConfigTest.minimal.replacingFirst("kind: stack", with: "kind: stack\n    children: [a]") + """
                  a: { kind: stack, children: [b], pages: { a: /a } }
                  b: { kind: stack, children: [main], pages: { b: /b } }

                """
        let findings = ConfigTest.findings(yaml)
        #expect(findings.map(ConfigTest.summary) == ["16:32 error parent-cycle"])
        #expect(
            findings.first?.message
                == "cycle in the coordinator hierarchy: main → a → b → main; a coordinator cannot be its own ancestor")
    }

    @Test func cycleMixingChildrenAndParentsIsFound() {
        let yaml =
            ConfigTest.minimal + """
                  a: { kind: stack, parents: [main, b], pages: { a: /a } }
                  b: { kind: stack, parents: [a], pages: { b: /b } }

                """
        #expect(ConfigTest.summary(yaml) == ["14:37 error parent-cycle"])
    }

    @Test func coordinatorThatIsItsOwnParentIsACycle() {
        let yaml =
            ConfigTest.minimal + """
                  a: { kind: stack, parents: [main, a], pages: { a: /a } }

                """
        #expect(ConfigTest.summary(yaml) == ["14:37 error parent-cycle"])
    }
}
