/// Which link schemes and hosts are accepted.
///
/// Custom schemes (`shop`) carry the path right after the colon: `shop://offers/SUMMER`, `shop:///offers/SUMMER`
/// and `shop:/offers/SUMMER` all mean `/offers/SUMMER`. Universal links are `https://HOST/path` for a host in
/// ``hosts``: compared case-insensitively, a port ignored, `*.example.com` matching any subdomain of
/// `example.com` but not `example.com` itself. `http` links are never accepted.
public struct LinkPolicy: Sendable, Hashable {
    /// The lists and their byte forms behind one reference: the matcher copies the policy on every link.
    final class Storage: Sendable {
        let schemes: [String]
        let hosts: [String]
        let schemeBytes: [[UInt8]]
        let exactHosts: [[UInt8]]
        /// The index in `hosts` of each of `exactHosts`.
        let exactHostIndices: [Int]
        /// `.example.com` for each `*.example.com`.
        let wildcardSuffixes: [[UInt8]]

        init(schemes: [String], hosts: [String]) {
            self.schemes = schemes
            self.hosts = hosts
            self.schemeBytes = schemes.map { Array($0.utf8) }
            var exact: [[UInt8]] = []
            var indices: [Int] = []
            var wildcard: [[UInt8]] = []
            for (index, host) in hosts.enumerated() {
                if host.hasPrefix("*.") {
                    wildcard.append(Array(host.utf8.dropFirst()))
                } else {
                    exact.append(Array(host.utf8))
                    indices.append(index)
                }
            }
            self.exactHosts = exact
            self.exactHostIndices = indices
            self.wildcardSuffixes = wildcard
        }
    }

    let storage: Storage
    /// The longest link accepted, in UTF-8 bytes.
    public let maximumLength: Int
    /// Literal path text (literal segments, the text around a part-literal's parameter) compared ignoring the case
    /// of ASCII letters, as RoutingKit's case-insensitive router does; parameters keep the link's text as it is.
    public let caseInsensitivePaths: Bool

    /// Custom schemes (`shop`), lower-cased.
    public var schemes: [String] { storage.schemes }
    /// Universal-link hosts (https only), lower-cased; `*.example.com` matches any subdomain.
    public var hosts: [String] { storage.hosts }

    /// The default bound on a link's length: 4096 bytes.
    public static let defaultMaximumLength = 4096

    /// A policy from its allow-lists; schemes and hosts are compared case-insensitively.
    public init(
        schemes: [String], hosts: [String], maximumLength: Int = LinkPolicy.defaultMaximumLength,
        caseInsensitivePaths: Bool = false
    ) {
        self.storage = Storage(schemes: schemes.map { $0.lowercased() }, hosts: hosts.map { $0.lowercased() })
        self.maximumLength = maximumLength
        self.caseInsensitivePaths = caseInsensitivePaths
    }

    /// Policies are equal when they accept the same schemes, hosts and length.
    public static func == (lhs: LinkPolicy, rhs: LinkPolicy) -> Bool {
        lhs.schemes == rhs.schemes && lhs.hosts == rhs.hosts && lhs.maximumLength == rhs.maximumLength
            && lhs.caseInsensitivePaths == rhs.caseInsensitivePaths
    }

    /// Hashes schemes, hosts and length.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(schemes)
        hasher.combine(hosts)
        hasher.combine(maximumLength)
        hasher.combine(caseInsensitivePaths)
    }

    /// True when `scheme` is one of ``schemes`` (case-insensitive).
    public func allowsScheme(_ scheme: String) -> Bool {
        var s = scheme
        return s.withUTF8 { allowsScheme($0[...]) }
    }

    /// True when `host` (without a port) is allowed for universal links (case-insensitive, one trailing dot ignored).
    public func allowsHost(_ host: String) -> Bool {
        var s = host
        return s.withUTF8 { allowsHost($0[...]) }
    }

    /// The first host that is not a wildcard: the host of canonical universal links.
    public var canonicalHost: String? { hosts.first(where: { !$0.hasPrefix("*.") }) }

    func allowsScheme(_ scheme: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        schemeIndex(scheme) != nil
    }

    /// The index in ``schemes`` of `scheme` (case-insensitive).
    func schemeIndex(_ scheme: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        storage.schemeBytes.firstIndex { asciiCaseInsensitiveEquals(scheme, $0) }
    }

    func allowsHost(_ host: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        hostMatch(host) != nil
    }

    /// The index in ``hosts`` of the exact host `host` equals, -1 when only a wildcard allows it, `nil` when not
    /// allowed.
    func hostMatch(_ host: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        var host = host
        if host.last == UInt8(ascii: ".") { host = host.dropLast() }
        guard !host.isEmpty else { return nil }
        if let exact = storage.exactHosts.firstIndex(where: { asciiCaseInsensitiveEquals(host, $0) }) {
            return storage.exactHostIndices[exact]
        }
        for suffix in storage.wildcardSuffixes where host.count > suffix.count {
            let tail = host[(host.endIndex - suffix.count)...]
            // A subdomain needs a label before the suffix: "a.example.com", never ".example.com".
            if asciiCaseInsensitiveEquals(tail, suffix), host.first != UInt8(ascii: ".") { return -1 }
        }
        return nil
    }
}

/// Compares bytes with ASCII letters folded to lower case; `lower` must already be lower-case.
@inline(__always)
func asciiCaseInsensitiveEquals(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, _ lower: [UInt8]) -> Bool {
    guard bytes.count == lower.count else { return false }
    var j = 0
    for b in bytes {
        let folded = b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") ? b | 0x20 : b
        if folded != lower[j] { return false }
        j += 1
    }
    return true
}
