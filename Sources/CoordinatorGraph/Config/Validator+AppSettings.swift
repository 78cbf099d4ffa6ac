extension Validator {
    /// The `app:` section: schemes that are custom schemes, hosts that are host names.
    mutating func checkApp() {
        guard let app = draft.app else { return }
        for scheme in app.schemes {
            let s = scheme.value.lowercased()
            if s == "http" || s == "https" {
                error(
                    "invalid-scheme", at: scheme.location,
                    "'\(scheme.value)' cannot be a custom scheme; list universal-link hosts under 'hosts' instead")
            } else if !Validator.isScheme(s) {
                error(
                    "invalid-scheme", at: scheme.location,
                    "'\(scheme.value)' is not a valid scheme; expected a letter then letters, digits, '+', '-' or '.' "
                        + "without '://', e.g. 'shop'")
            }
        }
        for host in app.hosts where !Validator.isHostPattern(host.value.lowercased()) {
            var hint = "expected a host name such as 'shop.example.com' or '*.shop.example.com'"
            if host.value.contains("://") {
                hint += " without the scheme"
            } else if host.value.contains(":") || host.value.contains("/") {
                hint += " without a port or path"
            }
            error("invalid-host", at: host.location, "'\(host.value)' is not a valid host; \(hint)")
        }
        if let unlinked = draft.unlinked, unlinked.value == .fallback, app.fallback == nil {
            error(
                "unlinked-without-fallback", at: unlinked.location,
                "'links.unlinked: fallback' sends taps without a link to the app's fallback page, but 'app' declares "
                    + "no 'fallback'; add one, or write 'unlinked: open'")
        }
        if app.schemes.isEmpty && app.hosts.isEmpty {
            warning(
                "no-links", at: app.location,
                "'app' lists no schemes and no hosts, so no link can match; add 'schemes: [myapp]' or 'hosts: [...]'")
        }
    }

    /// RFC 3986: `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`, checked on the lower-cased text.
    static func isScheme(_ s: String) -> Bool {
        guard let first = s.utf8.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first) else { return false }
        return s.utf8.allSatisfy {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
        }
    }

    /// A DNS host name (lower-cased), optionally `*.` followed by one with at least two labels.
    static func isHostPattern(_ s: String) -> Bool {
        var name = Substring(s)
        var minimumLabels = 1
        if name.hasPrefix("*.") {
            name = name.dropFirst(2)
            minimumLabels = 2
        }
        guard !name.isEmpty, name.utf8.count <= 253 else { return false }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= minimumLabels else { return false }
        return labels.allSatisfy { label in
            guard (1...63).contains(label.utf8.count), label.first != "-", label.last != "-" else { return false }
            return label.utf8.allSatisfy {
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || $0 == UInt8(ascii: "-")
            }
        }
    }
}
