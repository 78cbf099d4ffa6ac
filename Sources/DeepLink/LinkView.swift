/// A byte range `start..<end` in a scanned link's buffers.
struct Span {
    var start: Int32
    var end: Int32

    @inline(__always) var count: Int { Int(end &- start) }
}

/// One query item: decoded key and value spans.
struct QuerySpan {
    var key: Span
    var value: Span
}

/// A link scanned into byte spans, valid only inside ``LinkScanner/withScannedLink(_:policy:_:)``.
///
/// `decoded` holds the percent-decoded path with one `/` between non-empty segments, then each query key and value
/// (with `+` as space). Nothing is allocated for a link without escapes.
struct LinkView {
    /// Where the link came from, without strings: an index into the policy's lists or a range of `raw`.
    enum OriginRef {
        case path
        case scheme(Int)
        case host(Int)
        case wildcardHost(start: Int, end: Int)
    }

    let originRef: OriginRef
    /// The link's own bytes.
    let raw: UnsafeBufferPointer<UInt8>
    unowned(unsafe) let policy: LinkPolicy.Storage
    let decoded: UnsafeBufferPointer<UInt8>
    let segments: UnsafeBufferPointer<Span>
    let query: UnsafeBufferPointer<QuerySpan>

    @inline(__always)
    func bytes(_ span: Span) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: decoded[Int(span.start)..<Int(span.end)])
    }

    func text(_ span: Span) -> String { String(decoding: bytes(span), as: UTF8.self) }

    /// The segments from `depth` to the end joined by `/`.
    func rest(from depth: Int) -> Span { Span(start: segments[depth].start, end: segments[segments.count - 1].end) }

    /// The first query item whose key equals `key`.
    func queryValue(_ key: UnsafeBufferPointer<UInt8>) -> Span? {
        for item in query where bytesEqual(bytes(item.key), key) { return item.value }
        return nil
    }

    /// The values of every query item whose key equals `key`, in the link's order.
    func queryValues(_ key: UnsafeBufferPointer<UInt8>) -> [Span] {
        var values: [Span] = []
        for item in query where bytesEqual(bytes(item.key), key) { values.append(item.value) }
        return values
    }

    /// Where the link came from.
    var origin: Link.Origin {
        switch originRef {
        case .path: return .path
        case .scheme(let i): return .scheme(policy.schemes[i])
        case .host(let i): return .host(policy.hosts[i])
        case .wildcardHost(let start, let end):
            var name = String(decoding: raw[start..<end], as: UTF8.self).lowercased()
            if name.hasSuffix(".") { name.removeLast() }
            return .host(name)
        }
    }

    /// The link as a ``Link`` value with strings.
    var link: Link {
        Link(
            origin: origin, segments: segments.map(text),
            query: query.map { Link.QueryItem(key: text($0.key), value: text($0.value)) })
    }
}
