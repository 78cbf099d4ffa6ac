import DeepLink
import Testing

@Suite struct LinkParsingTests {
    let policy = LinkPolicy(schemes: ["shop"], hosts: ["shop.example.com", "*.example.org"])

    func parse(_ text: String) throws -> Link { try Link.parse(text, policy: policy) }

    func error(_ text: String) -> LinkError? {
        do {
            _ = try Link.parse(text, policy: policy)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: ["shop://offers/SUMMER", "shop:///offers/SUMMER", "shop:/offers/SUMMER", "SHOP://offers/SUMMER"])
    func customSchemeFormsMeanTheSamePath(link: String) throws {
        let parsed = try parse(link)
        #expect(parsed.origin == .scheme("shop"))
        #expect(parsed.segments == ["offers", "SUMMER"])
    }

    @Test(arguments: [
        ("https://shop.example.com/offers/SUMMER", "shop.example.com"),
        ("HTTPS://Shop.Example.COM/offers/SUMMER", "shop.example.com"),
        ("https://shop.example.com:443/offers/SUMMER", "shop.example.com"),
        ("https://shop.example.com./offers/SUMMER", "shop.example.com"),
        ("https://a.example.org/offers/SUMMER", "a.example.org"),
        ("https://b.a.example.org:8443/offers/SUMMER", "b.a.example.org"),
    ])
    func universalLinksForAllowedHosts(link: String, host: String) throws {
        let parsed = try parse(link)
        #expect(parsed.origin == .host(host))
        #expect(parsed.segments == ["offers", "SUMMER"])
    }

    @Test func universalLinkWithoutPathIsTheRoot() throws {
        #expect(try parse("https://shop.example.com").segments.isEmpty)
        #expect(try parse("https://shop.example.com?ref=x").queryValue("ref") == "x")
    }

    @Test func barePathIsAccepted() throws {
        let parsed = try parse("/offers/SUMMER")
        #expect(parsed.origin == .path)
        #expect(parsed.segments == ["offers", "SUMMER"])
    }

    @Test(arguments: [
        ("https://example.org/x", "host 'example.org' is not allowed"),
        ("https://evil.com/x", "host 'evil.com' is not allowed"),
        ("https://shop.example.com.evil.com/x", "is not allowed"),
        ("https://xexample.org/x", "is not allowed"),
        ("https://[::1]/x", "IP address"),
    ])
    func otherHostsAreNotAllowed(link: String, reason: String) {
        let error = error(link)
        #expect(error?.code == .hostNotAllowed)
        #expect(error?.reason.contains(reason) == true, "\(String(describing: error))")
    }

    @Test func userInformationIsRejected() {
        let error = error("https://shop.example.com@evil.com/offers/X")
        #expect(error?.code == .malformed)
        #expect(error?.reason.contains("user information") == true)
    }

    @Test func httpIsRejectedWithAReason() {
        let error = error("http://shop.example.com/offers/X")
        #expect(error?.code == .schemeNotAllowed)
        #expect(error?.reason.contains("use 'https:'") == true)
    }

    @Test(arguments: ["ftp://shop.example.com/x", "javascript:alert(1)", "mailto:a@b.c"])
    func otherSchemesAreNotAllowed(link: String) {
        let error = error(link)
        #expect(error?.code == .schemeNotAllowed)
        #expect(error?.reason.contains("is not allowed; expected 'shop:', 'https:'") == true)
    }

    @Test func percentEscapesAreDecodedPerSegmentAfterSplitting() throws {
        #expect(try parse("/files/a%2Fb/c").segments == ["files", "a/b", "c"])
        #expect(try parse("/caf%C3%A9/%E2%98%95").segments == ["café", "☕"])
        #expect(try parse("/a%20b/c+d").segments == ["a b", "c+d"])
    }

    @Test func plusIsASpaceOnlyInTheQuery() throws {
        let parsed = try parse("/s/a+b?q=a+b&r=1%2B1&e")
        #expect(parsed.segments == ["s", "a+b"])
        #expect(
            parsed.query == [.init(key: "q", value: "a b"), .init(key: "r", value: "1+1"), .init(key: "e", value: "")])
    }

    @Test func queryValueMayHoldEqualsSigns() throws {
        #expect(try parse("/s?t=a=b").queryValue("t") == "a=b")
    }

    @Test func emptySegmentsTrailingSlashAndFragmentAreIgnored() throws {
        let parsed = try parse("shop://offers//SUMMER/?ref=push#section")
        #expect(parsed.segments == ["offers", "SUMMER"])
        #expect(parsed.query == [.init(key: "ref", value: "push")])
        #expect(try parse("/a#b?c").query.isEmpty)
    }

    @Test(arguments: [
        ("/a%zz", "invalid percent escape in path segment 'a%zz'"),
        ("/a%2", "invalid percent escape"),
        ("/a%", "invalid percent escape"),
        ("/s?q=%G1", "invalid percent escape in query value"),
        ("/a%C3", "does not decode to valid UTF-8"),
        ("/a%C0%AF", "does not decode to valid UTF-8"),
        ("/a%ED%A0%80", "does not decode to valid UTF-8"),
        ("/a%00", "decodes to a control character"),
        ("/s?q=%0A", "decodes to a control character"),
        ("/a\nb", "control character 0xa at byte 2"),
        ("/a\u{7F}", "control character 0x7f"),
        ("", "the link is empty"),
        ("offers/SUMMER", "expected a scheme"),
        ("https:shop.example.com/x", "needs '//' and a host"),
        ("https:///x", "has no host"),
        ("https://shop.example.com:80a/x", "invalid port"),
    ])
    func malformedLinksSayWhatIsWrong(link: String, reason: String) {
        let error = error(link)
        #expect(error?.code == .malformed)
        #expect(error?.reason.contains(reason) == true, "\(String(describing: error))")
    }

    @Test func lengthIsBounded() throws {
        let long = "/" + String(repeating: "a", count: 5000)
        #expect(error(long)?.code == .malformed)
        #expect(error(long)?.reason.contains("5001 bytes long; the limit is 4096") == true)
        let small = LinkPolicy(schemes: [], hosts: [], maximumLength: 10)
        #expect(throws: LinkError.self) { try Link.parse("/0123456789", policy: small) }
        #expect(try Link.parse("/012345678", policy: small).segments == ["012345678"])
    }

    @Test func longSegmentsAndManySegmentsSplitCorrectly() throws {
        let segments = (0..<40).map { "segment-\($0)-" + String(repeating: "x", count: $0) }
        #expect(try parse("/" + segments.joined(separator: "/")).segments == segments)
        #expect(try parse("/" + segments.joined(separator: "/%41/")).segments.count == 79)
    }

    @Test func descriptionReencodesPathAndQuery() throws {
        #expect(try parse("/files/a%2Fb/caf%C3%A9?q=a+b").description == "/files/a%2Fb/caf%C3%A9?q=a%20b")
    }

    @Test func policyNormalizesCaseAndFindsTheCanonicalHost() {
        let policy = LinkPolicy(schemes: ["Shop"], hosts: ["*.Example.org", "WWW.example.org"])
        #expect(policy.schemes == ["shop"])
        #expect(policy.canonicalHost == "www.example.org")
        #expect(policy.allowsScheme("SHOP"))
        #expect(policy.allowsHost("a.example.org"))
        #expect(!policy.allowsHost("example.org"))
    }
}

/// Links read as a browser reads them: backslashes in universal links, dot segments, hosts, ports, spaces.
extension LinkParsingTests {
    @Test func aBackslashEndsTheHostOfAUniversalLinkAsInABrowser() {
        // A browser opens evil.com for this link: it must not pass as shop.example.com.
        let error = error(#"https://evil.com\.shop.example.com/offers/X"#)
        #expect(error?.code == .hostNotAllowed)
        #expect(error?.reason.contains("host 'evil.com' is not allowed") == true, "\(String(describing: error))")
    }

    @Test func backslashesInAUniversalLinkPathAreSlashes() throws {
        let parsed = try parse(#"https://shop.example.com\offers\SUMMER?q=a\b"#)
        #expect(parsed.origin == .host("shop.example.com"))
        #expect(parsed.segments == ["offers", "SUMMER"])
        #expect(parsed.queryValue("q") == #"a\b"#)
    }

    @Test func backslashesInACustomSchemeLinkAreData() throws {
        #expect(try parse(#"shop://offers/a\b"#).segments == ["offers", #"a\b"#])
    }

    @Test(arguments: [
        ("shop://offers/../cart", ["cart"]),
        ("shop://offers/./SUMMER", ["offers", "SUMMER"]),
        ("shop://a/b/../../cart", ["cart"]),
        ("shop://../../cart", ["cart"]),
        ("shop://offers/%2e%2e/cart", ["cart"]),
        ("shop://offers/%2E./cart/%2e", ["cart"]),
        ("https://shop.example.com/offers/SUMMER/..", ["offers"]),
        ("shop://offers/...", ["offers", "..."]),
        ("shop://offers/..x", ["offers", "..x"]),
    ])
    func dotSegmentsAreResolved(link: String, segments: [String]) throws {
        #expect(try parse(link).segments == segments)
    }

    @Test(arguments: [
        ("https://x..shop.example.com/a", "empty label"),
        ("https://a..example.org/a", "empty label"),
        ("https://sh%6Fp.example.com/a", "contains '%'"),
        ("https://shop.example.com:99999/a", "up to 65535"),
        ("https://shop.example.com:123456/a", "up to 65535"),
        ("https://shöp.example.org/a", "xn-- form"),
        ("https://shop example.com/a", "contains ' '"),
    ])
    func hostsAndPortsABrowserWouldNotOpenAreMalformed(link: String, reason: String) {
        let error = error(link)
        #expect(error?.code == .malformed)
        #expect(error?.reason.contains(reason) == true, "\(String(describing: error))")
    }

    @Test func theHighestPortIsAccepted() throws {
        #expect(try parse("https://shop.example.com:65535/a").segments == ["a"])
        #expect(try parse("https://shop.example.com:/a").segments == ["a"])
    }

    @Test(arguments: [" shop://offers/SUMMER", "shop://offers/SUMMER\n", "\t shop://offers/SUMMER \r\n"])
    func spacesAndControlsAroundALinkAreNotPartOfIt(link: String) throws {
        #expect(try parse(link).segments == ["offers", "SUMMER"])
    }

    @Test(arguments: [
        "shop://offers/abc\u{202E}gpj.exe", "shop://offers/%E2%80%AEx", "shop://offers/x?ref=%E2%81%A6",
        "shop://offers/\u{2066}x", "https://shop.example.com/offers/%e2%80%ab",
    ])
    func invisibleBidirectionalControlsAreRejected(link: String) {
        let error = error(link)
        #expect(error?.code == .malformed)
        #expect(error?.reason.contains("invisible bidirectional control U+") == true, "\(String(describing: error))")
    }

    @Test func otherNonASCIITextAndFragmentsAreFine() throws {
        #expect(try parse("shop://offers/caf%C3%A9—\u{2013}").segments == ["offers", "café—–"])
        #expect(try parse("shop://offers/x#\u{202E}").segments == ["offers", "x"])
        #expect(try parse("shop://offers/%E2%80%A9").segments == ["offers", "\u{2029}"])
    }

    @Test func controlsInsideALinkStillAreErrors() {
        #expect(error("shop://offers/SUM\nMER")?.code == .malformed)
        #expect(error("   ")?.reason == "the link is empty")
    }
}
