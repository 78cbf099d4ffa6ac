import CoordinatorGraph
import Testing

@Suite struct ValidationAppSettingsTests {
    static func config(schemes: String, hosts: String) -> String {
        ConfigTest.minimal.replacingFirst("  schemes: [test]", with: "  schemes: \(schemes)\n  hosts: \(hosts)")
    }

    @Test func httpAndHttpsAreNotCustomSchemes() {
        let findings = ConfigTest.findings(Self.config(schemes: "[shop, HTTPS, http, 'my app']", hosts: "[]"))
        #expect(
            findings.map(ConfigTest.summary) == [
                "4:19 error invalid-scheme", "4:26 error invalid-scheme", "4:33 error invalid-scheme",
            ])
        #expect(findings[0].message.contains("list universal-link hosts under 'hosts' instead"))
    }

    @Test func schemesAndHostsAreLowerCased() throws {
        let graph = try #require(
            ConfigTest.graph(Self.config(schemes: "[Shop]", hosts: "[Shop.Example.COM, \"*.Shop.Example.com\"]")))
        #expect(graph.app.schemes == ["shop"])
        #expect(graph.app.hosts == ["shop.example.com", "*.shop.example.com"])
    }

    @Test(arguments: [
        "shop.example.com", "localhost", "a-b.example.com", "*.shop.example.com", "xn--bcher-kva.example", "1.2.3.4",
    ])
    func validHosts(host: String) {
        #expect(ConfigTest.summary(Self.config(schemes: "[t]", hosts: "[\"\(host)\"]")).isEmpty)
    }

    @Test(arguments: [
        "https://shop.example.com", "shop.example.com:443", "shop.example.com/path", "-shop.example.com",
        "shop..example.com", "shop_example.com", "*.com", "*", "**.example.com", "sho p.example.com",
        String(repeating: "a", count: 64) + ".example.com",
    ])
    func invalidHosts(host: String) {
        #expect(ConfigTest.summary(Self.config(schemes: "[t]", hosts: "[\"\(host)\"]")) == ["5:12 error invalid-host"])
    }

    @Test func noSchemesAndNoHostsIsAWarning() throws {
        let loaded = try ConfigTest.load(ConfigTest.minimal.replacingFirst("  schemes: [test]\n", with: "")).get()
        #expect(loaded.warnings.map(ConfigTest.summary) == ["3:3 warning no-links"])
    }
}
