import CoordinatorGraph
import DeepLink
import Foundation
import Testing

@Suite struct ConfigYAMLTests {
    @Test func syntaxErrorNamesLineColumnAndContext() throws {
        let yaml = """
            version: 1
            app:
              name: Shop
             schemes: [shop]
            """
        let findings = ConfigTest.findings(yaml)
        #expect(findings.count == 1)
        let f = try #require(findings.first)
        #expect(f.code == "yaml-syntax")
        #expect((f.location.line, f.location.column) == (4, 2))
        #expect(f.message.contains("invalid YAML"))
    }

    @Test func unclosedFlowListIsASyntaxErrorAtTheEnd() throws {
        let f = try #require(ConfigTest.findings("version: 1\napp: [a, b\n").first)
        #expect(f.code == "yaml-syntax")
        #expect(f.location.line == 3)
        #expect(f.message.contains("flow sequence at 2:6"))
    }

    @Test func tabIndentationIsASyntaxError() {
        #expect(ConfigTest.summary("version: 1\napp:\n\tname: x\n") == ["3:1 error yaml-syntax"])
    }

    @Test func invalidUTF8IsReportedWithItsPosition() {
        var bytes = Array("version: 1\napp: caf".utf8)
        bytes += [0xC3, 0x28]
        let findings = ConfigLoader.load(bytes, file: "bad.yaml").failure?.findings ?? []
        #expect(findings.map(ConfigTest.summary) == ["2:9 error yaml-syntax"])
    }

    @Test func duplicateKeysAreErrorsAtTheRepeat() {
        let yaml =
            ConfigTest.minimal + """
                  main:
                    kind: stack
                    pages: { home: /home }

                """
        // `main` again (line 14), inside `coordinators`.
        let findings = ConfigTest.findings(yaml)
        #expect(findings.map(ConfigTest.summary) == ["14:3 error duplicate-key"])
        #expect(findings.first?.message == "duplicate key 'main'; it is already set at 10:3")
    }

    @Test func duplicateKeysInsideAPageAndAtTheTopAreAllReported() {
        let yaml = """
            version: 1
            version: 1
            app: { name: A, name: B, schemes: [a] }
            coordinators:
              app: { kind: app, children: [main], root: main }
              main:
                kind: stack
                pages:
                  home: { path: /home, path: /start }
            """
        #expect(
            ConfigTest.summary(yaml) == [
                "2:1 error duplicate-key", "3:17 error duplicate-key", "9:28 error duplicate-key",
            ])
    }

    @Test func anchorsAndAliasesAreRejectedWithAHint() {
        let yaml = """
            version: 1
            app: { name: Shop, schemes: [shop] }
            coordinators:
              app: { kind: app, children: [main, login], root: main }
              main:
                kind: stack
                requires: &gate [session]
                pages:
                  home: { path: /home, requires: *gate }
              login: { kind: modal, provides: session, pages: { login: /login } }
            """
        let findings = ConfigTest.findings(yaml)
        #expect(findings.map(ConfigTest.summary) == ["7:15 error yaml-anchor", "9:38 error yaml-alias"])
        #expect(findings.allSatisfy { $0.message.contains("repeat the value") })
    }

    @Test func unquotedWildcardHostGetsAHint() throws {
        let yaml = """
            version: 1
            app: { name: Shop, hosts: [*.shop.example.com] }
            """
        let f = try #require(ConfigTest.findings(yaml).first)
        #expect(f.code == "yaml-syntax")
        #expect(f.location.line == 2)
        #expect(f.message.contains("quote"))
    }

    @Test func customTagsAreRejectedButStrForcesText() {
        let yaml = """
            version: 1
            app: { name: !!str 2048, schemes: [shop] }
            links: { pendingExpiry: !secret 600 }
            coordinators:
              app: { kind: app, children: [main], root: main }
              main: { kind: stack, pages: { home: /home } }
            """
        #expect(ConfigTest.summary(yaml) == ["3:25 error yaml-tag", "3:25 error wrong-type"])
    }

    @Test func secondDocumentIsRejected() {
        let yaml = ConfigTest.minimal + "---\nversion: 1\n"
        #expect(ConfigTest.summary(yaml) == ["14:1 error yaml-multiple-documents"])
    }

    @Test func columnsCountCharactersNotBytes() {
        let yaml = """
            version: 1
            app: { name: "Café Ünïcödé", schemes: [shop], hosts: [bad_host] }
            coordinators:
              app: { kind: app, children: [main], root: main }
              main: { kind: stack, pages: { home: /home } }
            """
        #expect(ConfigTest.summary(yaml) == ["2:55 error invalid-host"])
    }

    @Test func declarationsWithColonsAndBracesReadTheSameQuotedOrNot() throws {
        let plain = """
            version: 1
            app: { name: Shop, schemes: [shop], fallback: cart.offer(id: "A, B: {c}") }
            categories: { SALE: cart.offer(id: $code), TOP: cart.list(sort: rating, page: 2) }
            types: { Sort: [price, rating] }
            coordinators:
              app: { kind: app, children: [cart], root: cart }
              cart:
                kind: stack
                pages:
                  list(sort: Sort = price, page: Int = 1): /list?sort={sort}&page={page}   # a comment (x: y)
                  offer(id: String): [/offers/{id}, /o/{id}]
            """
        let quoted = """
            version: 1
            app: { name: Shop, schemes: [shop], fallback: 'cart.offer(id: "A, B: {c}")' }
            categories: { SALE: "cart.offer(id: $code)", TOP: "cart.list(sort: rating, page: 2)" }
            types: { Sort: [price, rating] }
            coordinators:
              app: { kind: app, children: [cart], root: cart }
              cart:
                kind: stack
                pages:
                  "list(sort: Sort = price, page: Int = 1)": "/list?sort={sort}&page={page}"
                  "offer(id: String)": ["/offers/{id}", "/o/{id}"]
            """
        let a = try #require(ConfigTest.graph(plain))
        let b = try #require(ConfigTest.graph(quoted))
        for g in [a, b] {
            #expect(g.app.fallback?.description == #"cart.offer(id: "A, B: {c}")"#)
            #expect(g.categories["TOP"]?.description == #"cart.list(sort: "rating", page: "2")"#)
            #expect(
                g.page(PageID(coordinator: "cart", name: "list"))?.patterns.map(\.text) == [
                    "/list?sort={sort}&page={page}"
                ])
            #expect(
                g.page(PageID(coordinator: "cart", name: "offer"))?.patterns.map(\.text) == ["/offers/{id}", "/o/{id}"])
        }
        // Columns are unchanged by the placeholders: the second pattern starts at column 41, its name at 45, its end
        // (where the unbound 'id' is reported) at 50.
        let bad = plain.replacingOccurrences(of: "/o/{id}]", with: "/o/{code}]")
        #expect(
            ConfigTest.summary(bad) == [
                "11:45 error pattern-unknown-parameter", "11:50 error pattern-unbound-parameter",
            ])
    }

    @Test func deepNestingIsRejected() {
        let yaml = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        #expect(ConfigTest.summary(yaml) == ["1:257 error nesting-too-deep"])
    }
}

@Suite struct ConfigYAMLKeyTests {
    @Test func complexKeysAreRejected() {
        let yaml = ConfigTest.minimal + "? [a, b]\n: c\n"
        #expect(ConfigTest.summary(yaml) == ["14:3 error yaml-complex-key"])
    }

    @Test func aliasOfAMappingCausesNoFurtherFindings() {
        let yaml = """
            version: 1
            app: &settings { name: Shop, schemes: [shop] }
            links: *settings
            coordinators:
              app: { kind: app, children: [main], root: main }
              main: { kind: stack, pages: { home: /home } }
            """
        #expect(ConfigTest.summary(yaml) == ["2:6 error yaml-anchor", "3:8 error yaml-alias"])
    }
}
