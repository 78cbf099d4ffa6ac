/// A link split into percent-decoded path segments and query items, after its scheme and host were checked.
///
/// Parsing works on the UTF-8 bytes: the path is split at `/` before each segment is percent-decoded (so `%2F`
/// stays inside its segment), empty segments and a trailing slash are ignored, `+` means a space only in the query,
/// the fragment is dropped. A bare path (`/offers/SUMMER`) is accepted as is.
public struct Link: Sendable, Hashable, CustomStringConvertible {
    /// Where the link came from.
    public enum Origin: Sendable, Hashable {
        /// A bare path such as `/offers/SUMMER`.
        case path
        /// A custom scheme (lower-cased) such as `shop`.
        case scheme(String)
        /// A universal link to this host (lower-cased, without port).
        case host(String)
    }

    /// One `key=value` pair of the query, decoded.
    public struct QueryItem: Sendable, Hashable {
        /// The decoded key.
        public let key: String
        /// The decoded value (empty for a bare `key`).
        public let value: String

        /// An item from its key and value.
        public init(key: String, value: String) {
            self.key = key
            self.value = value
        }
    }

    /// Where the link came from.
    public let origin: Origin
    /// Decoded, non-empty path segments.
    public let segments: [String]
    /// Decoded query items in link order.
    public let query: [QueryItem]

    /// A link from its parts.
    public init(origin: Origin, segments: [String], query: [QueryItem] = []) {
        self.origin = origin
        self.segments = segments
        self.query = query
    }

    /// The first value of `key` in the query.
    public func queryValue(_ key: String) -> String? {
        query.first(where: { $0.key == key })?.value
    }

    /// The path and query, re-encoded: `/offers/SUMMER?ref=push`.
    public var description: String {
        var out = "/" + segments.map { percentEncode($0, for: .segment) }.joined(separator: "/")
        if !query.isEmpty {
            out +=
                "?"
                + query.map { percentEncode($0.key, for: .query) + "=" + percentEncode($0.value, for: .query) }
                .joined(separator: "&")
        }
        return out
    }

    /// Parses a link that `policy` allows.
    public static func parse(_ text: String, policy: LinkPolicy) throws(LinkError) -> Link {
        var link: Link?
        if let error = LinkScanner.withScannedLink(text, policy: policy, { link = $0.link }) { throw error }
        return link ?? Link(origin: .path, segments: [])
    }
}
