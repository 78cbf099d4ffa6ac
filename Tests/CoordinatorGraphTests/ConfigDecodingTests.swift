import CoordinatorGraph
import Foundation
import Testing

@Suite struct ConfigDecodingTests {
    @Test func unknownKeysAreErrorsEverywhereWithASuggestion() {
        let yaml = """
            version: 1
            app: { name: Shop, schemes: [shop], fallbak: main.home }
            linkz: { keys: [url] }
            coordinators:
              app: { kind: app, children: [main], root: main }
              main:
                kind: stack
                pagez: {}
                pages:
                  home: { path: /home, requries: [x] }
            """
        let findings = ConfigTest.findings(yaml)
        #expect(
            findings.map(ConfigTest.summary) == [
                "2:37 error unknown-key", "3:1 error unknown-key", "8:5 error unknown-key", "10:28 error unknown-key",
            ])
        #expect(findings[0].message.hasSuffix("(did you mean 'fallback'?)"))
        #expect(findings[1].message.hasSuffix("(did you mean 'links'?)"))
        #expect(findings[2].message.hasSuffix("(did you mean 'pages'?)"))
        #expect(
            findings[3].message
                == "unknown key 'requries' in page 'main.home'; expected one of path, requires, back (did you mean 'requires'?)"
        )
    }

    @Test func missingRequiredKeysAreNamed() {
        let yaml = """
            version: 1
            app: { schemes: [shop] }
            coordinators:
              app: { children: [main], root: main }
              main: { kind: stack, pages: { home: /home } }
            """
        let findings = ConfigTest.findings(yaml)
        #expect(findings.map(ConfigTest.summary) == ["2:6 error missing-key", "4:8 error missing-key"])
        #expect(findings.contains { $0.message == "missing key 'name' in 'app'" })
        #expect(findings.contains { $0.message == "missing key 'kind' in coordinator 'app'" })
    }

    @Test(arguments: [
        ("version: \"1\"", "1:10", "expected an integer for 'version', found the string \"1\""),
        ("version: one", "1:10", "expected an integer for 'version', found the string \"one\""),
        ("version: 2", "1:10", "unsupported version 2; expected 'version: 1'"),
        ("version: [1]", "1:10", "expected an integer for 'version', found a list"),
    ])
    func versionMustBeTheIntegerOne(line: String, place: String, message: String) throws {
        let yaml =
            line + "\n"
            + ConfigTest.minimal.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
            .joined(separator: "\n")
        let findings = ConfigTest.findings(yaml)
        let f = try #require(findings.first)
        #expect(findings.count == 1)
        #expect("\(f.location.line):\(f.location.column)" == place)
        #expect(f.message == message)
    }

    @Test func wrongScalarTypesSayWhatWasExpectedAndFound() {
        let yaml = """
            version: 1
            app: { name: 2048, schemes: shop, hosts: { a: b } }
            links: { keys: [url, 3], pendingExpiry: soon }
            types: { Sort: price, Size: [] }
            coordinators:
              app: { kind: [app], children: main, root: main }
              main: { kind: stack, pages: [home] }
            """
        let findings = ConfigTest.findings(yaml)
        #expect(
            findings.map(ConfigTest.summary) == [
                "2:14 error wrong-type", "2:42 error wrong-type", "3:22 error wrong-type", "3:41 error wrong-type",
                "4:29 error invalid-value", "6:16 error wrong-type", "7:31 error wrong-type",
            ])
        let messages = findings.map(\.message)
        #expect(
            messages.contains(
                "expected a string for 'app.name', found the integer 2048; put it in quotes to use it as text"))
        #expect(messages.contains("expected a string or a list of strings for 'app.hosts', found a mapping"))
        #expect(
            messages.contains(
                "expected a string for 'links.keys', found the integer 3; put it in quotes to use it as text"))
        #expect(messages.contains("expected an integer for 'links.pendingExpiry', found the string \"soon\""))
        #expect(messages.contains("'types.Size' needs at least one case, e.g. [price, rating]"))
        #expect(messages.contains("expected a string for 'coordinators.app.kind', found a list"))
        #expect(
            messages.contains(
                "expected a mapping of page declarations to links for 'coordinators.main.pages', found a list"))
    }

    @Test func unknownKindListsTheKinds() {
        let yaml = ConfigTest.minimal.replacingFirst("kind: stack", with: "kind: stak")
        let findings = ConfigTest.findings(yaml)
        #expect(findings.map(ConfigTest.summary) == ["11:11 error unknown-kind"])
        #expect(findings.first?.message == "unknown kind 'stak'; expected one of app, tabs, stack, modal, flow")
    }

    @Test func pendingExpiryMustBePositive() {
        let yaml = ConfigTest.minimal + "links: { pendingExpiry: 0 }\n"
        #expect(ConfigTest.summary(yaml) == ["14:25 error invalid-value"])
    }

    @Test func manyProblemsAreReportedTogetherInFileOrder() {
        let yaml = """
            version: 1
            app: { name: Shop, schemes: [https], hosts: ["shop.example.com:443"] }
            types: { Sort: [price, price] }
            coordinators:
              app: { kind: app, children: [main, ghost], root: main }
              main:
                kind: stack
                requires: [vip]
                pages:
                  home: /home
                  item(id: Intt): /items/{id}
                  list(sort: Sort): /list/{order}
              orphan: { kind: stack, pages: { x: /x } }
            """
        #expect(
            ConfigTest.summary(yaml) == [
                "2:30 error invalid-scheme", "2:47 error invalid-host", "3:24 error duplicate-case",
                "5:38 error unknown-coordinator", "8:16 error unprovided-condition", "11:16 error unknown-type",
                "12:32 error pattern-unknown-parameter", "12:38 error pattern-unbound-parameter",
                "13:3 error unreachable-coordinator",
            ])
    }

    @Test func invalidDeclarationsAndPatternsPointAtTheCharacter() {
        let yaml =
            ConfigTest.minimal + """
                      item(id: Int = x): /items/{id}
                      "show(id: String)": "/show/{id"
                      list(): /list

                """
        let findings = ConfigTest.findings(yaml)
        #expect(
            findings.map(ConfigTest.summary) == [
                "14:22 error invalid-declaration", "15:34 error invalid-pattern", "16:12 error invalid-declaration",
            ])
    }

    @Test func namesMustBeIdentifiers() {
        let yaml = """
            version: 1
            app: { name: Shop, schemes: [shop] }
            types: { sort-order: [a], Sort: [low-high] }
            coordinators:
              app: { kind: app, children: [main], root: main }
              main: { kind: stack, pages: { home: /home } }
              my-tab: { kind: stack, pages: { home: /tab } }
            """
        #expect(
            ConfigTest.summary(yaml) == [
                "3:10 error invalid-name", "3:34 error invalid-name", "7:3 error invalid-name",
                "7:3 error unreachable-coordinator",
            ])
    }
}

extension String {
    /// The text with the first occurrence of `target` replaced.
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
