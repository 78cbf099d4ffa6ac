import CoordinatorGraph
import DeepLink
import Testing

/// The `links` section's rules 1 and 6 (docs/payloads.md): `links.unlinked` and dotted `links.keys` paths.
@Suite struct ValidationLinksTests {
    static func config(links: String, fallback: Bool = true) -> String {
        ConfigTest.minimal.replacingFirst(
            "  schemes: [test]\n", with: "  schemes: [test]\n" + (fallback ? "  fallback: main.home\n" : ""))
            + "links:\n" + links
    }

    @Test func unlinkedIsOpenUnlessWritten() throws {
        let graph = try #require(ConfigTest.graph(Self.config(links: "  keys: [deeplink]\n")))
        #expect(graph.unlinked == .open)
        #expect(graph.payloadOptions.unlinked == .open)
        for value in ["open", "fallback", "error"] {
            let graph = try #require(ConfigTest.graph(Self.config(links: "  unlinked: \(value)\n")))
            #expect(graph.unlinked.rawValue == value)
        }
    }

    @Test func anUnknownUnlinkedValueIsAnErrorNamingTheChoices() {
        let findings = ConfigTest.findings(Self.config(links: "  unlinked: home\n"))
        #expect(findings.map(ConfigTest.summary) == ["16:13 error invalid-value"])
        #expect(findings.first?.message == "'links.unlinked' must be open, fallback or error, not 'home'")
    }

    @Test func unlinkedFallbackNeedsAFallbackPage() {
        let findings = ConfigTest.findings(Self.config(links: "  unlinked: fallback\n", fallback: false))
        #expect(findings.map(ConfigTest.summary) == ["15:13 error unlinked-without-fallback"])
        #expect(findings.first?.message.contains("add one, or write 'unlinked: open'") == true)
    }

    @Test func dottedKeysAreReadAsPathsIntoThePayload() throws {
        let graph = try #require(
            ConfigTest.graph(Self.config(links: #"  keys: [custom.u, itbl.defaultAction.data, '["a.b"]', url]"# + "\n"))
        )
        #expect(graph.linkKeys == ["custom.u", "itbl.defaultAction.data", #"["a.b"]"#, "url"])
        let reader = PayloadReader(options: graph.payloadOptions)
        let reading = try reader.read(
            bytes: Array(#"{"aps": {"alert": "Hi"}, "custom": {"u": "test://home"}, "a.b": "test://x"}"#.utf8))
        #expect(reading.candidates.map(\.field) == ["custom.u", #"["a.b"]"#])
    }

    @Test(arguments: [
        ("custom.", "16:10"), (".u", "16:10"), ("custom..u", "16:10"), (#"'["a.b"'"#, "16:11"), (#"'[a]'"#, "16:11"),
    ])
    func aKeyThatIsNotAPathIsAnErrorSayingWhereAndHowToWriteIt(key: String, at: String) {
        let findings = ConfigTest.findings(Self.config(links: "  keys: [\(key)]\n"))
        #expect(findings.map(ConfigTest.summary) == ["\(at) error invalid-link-key"], "\(findings)")
        #expect(findings.first?.message.contains("is not a key path: ") == true)
        #expect(findings.first?.message.contains(#"a key holding a dot as ["a.b"]"#) == true)
    }
}
