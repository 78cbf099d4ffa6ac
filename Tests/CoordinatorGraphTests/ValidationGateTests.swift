import CoordinatorGraph
import Testing

/// Gates that can never open, and root pages that cannot be built.
@Suite struct ValidationGateTests {
    @Test func providersThatWaitForEachOtherAreOneErrorNamingBothPlaces() {
        let yaml = """
            version: 1
            app: { name: A, schemes: [a] }
            coordinators:
              app: { kind: app, children: [s, login, pay], root: s }
              s:
                kind: stack
                pages:
                  home: /home
                  vip: { path: /vip, requires: [session] }
              login:
                kind: modal
                provides: session
                requires: [member]
                pages: { login: /login }
              pay:
                kind: modal
                provides: member
                requires: [session]
                pages: { join: /join }

            """
        let findings = ConfigTest.findings(yaml)
        #expect(findings.map(ConfigTest.summary) == ["13:16 error condition-cycle"])
        #expect(
            findings.first?.message
                == "gates wait for each other: 'login' (which provides 'session') requires 'member'; 'pay' (which "
                + "provides 'member') requires 'session' (at 18:16); none of them can ever open: drop one of these "
                + "requirements")
    }

    @Test func conditionCycleThroughACoordinatorAProviderIsPlacedUnder() {
        let yaml = """
            version: 1
            app: { name: A, schemes: [a] }
            coordinators:
              app: { kind: app, children: [s, club, membership], root: s }
              s: { kind: stack, pages: { home: /home } }
              club:
                kind: stack
                requires: [member]
                pages: { lounge: /lounge }
              login: { kind: modal, parents: [club], provides: session, pages: { login: /login } }
              membership: { kind: modal, requires: [session], provides: member, pages: { join: /join } }

            """
        let findings = ConfigTest.findings(yaml)
        #expect(findings.map(ConfigTest.summary) == ["8:16 error condition-cycle"])
        #expect(
            findings.first?.message
                == "gates wait for each other: 'login' (which provides 'session') is under 'club', which requires "
                + "'member'; 'membership' (which provides 'member') requires 'session' (at 11:41); none of them can "
                + "ever open: drop one of these requirements")
    }

    @Test func longerConditionCyclesAreReportedOnce() {
        let yaml = """
            version: 1
            app: { name: A, schemes: [a] }
            coordinators:
              app: { kind: app, children: [s, a, b, c], root: s }
              s: { kind: stack, pages: { home: { path: /home, requires: [x] } } }
              a: { kind: modal, provides: x, requires: [y], pages: { a: /a } }
              b: { kind: modal, provides: y, requires: [z], pages: { b: /b } }
              c: { kind: modal, provides: z, requires: [x], pages: { c: /c } }

            """
        let findings = ConfigTest.findings(yaml)
        #expect(findings.map(ConfigTest.summary) == ["6:45 error condition-cycle"])
        #expect(findings.first?.message.contains("'c' (which provides 'z') requires 'x' (at 8:45)") == true)
    }

    @Test func providerReachableOnlyThroughItsOwnGateIsAnError() {
        let yaml = """
            version: 1
            app: { name: A, schemes: [a] }
            coordinators:
              app: { kind: app, children: [main], root: main }
              main: { kind: tabs, children: [home, account], root: home }
              home:
                kind: stack
                pages:
                  home: /home
                  vip: { path: /vip, requires: [session] }
              account:
                kind: stack
                requires: [session]
                pages: { profile: /account }
              login:
                kind: modal
                provides: session
                parents: [account]
                pages: { login: /login }

            """
        let findings = ConfigTest.findings(yaml)
        #expect(findings.map(ConfigTest.summary) == ["17:15 error provider-under-gate"])
        #expect(
            findings.first?.message
                == "'login' provides 'session' but can only be reached through 'account', which requires 'session' "
                + "(at 13:16); it could never open: place it where 'session' is not required, e.g. among the "
                + "children of the app")
    }

    @Test func providerWithAParentOutsideTheGateIsAccepted() {
        let yaml = """
            version: 1
            app: { name: A, schemes: [a] }
            coordinators:
              app: { kind: app, children: [main], root: main }
              main: { kind: tabs, children: [home, account], root: home }
              home: { kind: stack, pages: { home: /home } }
              account: { kind: stack, requires: [session], pages: { profile: /account } }
              login: { kind: modal, provides: session, parents: [account, home], pages: { login: /login } }

            """
        #expect(ConfigTest.summary(yaml) == [])
    }

    @Test func stackWhoseRootPageNeedsArgumentsIsAWarning() {
        let yaml = """
            version: 1
            app: { name: A, schemes: [a] }
            coordinators:
              app: { kind: app, children: [t], root: t }
              t: { kind: tabs, children: [s], root: s }
              s:
                kind: stack
                pages:
                  item(id: Int, tab: String = "a", n: Int): /item/{id}/{n}
                  other: /other

            """
        let findings = ConfigTest.findings(yaml)
        #expect(findings.map(ConfigTest.summary) == ["9:7 warning root-page-arguments"])
        #expect(
            findings.first?.message
                == "the root page 'item' of 's' needs 'id' and 'n', which have no default; a stack shows its root "
                + "page when it is started on the way to another page and beneath a page on a cold start, and leaves "
                + "it out when it cannot build it: give them defaults or declare a page without parameters first")
    }

    @Test func providerWhoseFirstPageNeedsArgumentsIsAWarningButAModalMayNeedThem() {
        let yaml = """
            version: 1
            app: { name: A, schemes: [a] }
            coordinators:
              app: { kind: app, children: [s, login, pay], root: s }
              s: { kind: stack, pages: { home: { path: /home, requires: [session] }, item(n: Int = 1): /i/{n} } }
              login: { kind: modal, provides: session, pages: { login(next: String): /login/{next} } }
              pay: { kind: modal, pages: { pay(order: Int): /pay/{order} } }

            """
        let findings = ConfigTest.findings(yaml)
        #expect(findings.map(ConfigTest.summary) == ["6:53 warning root-page-arguments"])
        #expect(findings.first?.message.contains("a gate presents 'login' showing its first page") == true)
    }
}
