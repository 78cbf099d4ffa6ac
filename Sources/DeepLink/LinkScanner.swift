import JSON

/// The byte-level link scanner: checks the scheme and host, then splits and decodes path and query.
enum LinkScanner {
    static let slash = UInt8(ascii: "/")
    static let question = UInt8(ascii: "?")
    static let hash = UInt8(ascii: "#")
    static let colon = UInt8(ascii: ":")
    static let percent = UInt8(ascii: "%")
    static let plus = UInt8(ascii: "+")
    static let ampersand = UInt8(ascii: "&")
    static let equals = UInt8(ascii: "=")
    static let backslash = UInt8(ascii: "\\")
    static let dot = UInt8(ascii: ".")
    static let https: [UInt8] = Array("https".utf8)
    static let http: [UInt8] = Array("http".utf8)

    static func malformed(_ reason: String) -> LinkError { LinkError(code: .malformed, reason: reason) }

    static func text(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String { String(decoding: bytes, as: UTF8.self) }

    static func bidiMessage(_ control: UInt32, at place: String) -> String {
        let hex = String(control, radix: 16, uppercase: true)
        return "invisible bidirectional control U+\(hex) in \(place): it would make the page display as other text"
    }

    /// Scans `text` and calls `body` with its view (the view's buffers live only during the call); returns why the
    /// link was rejected instead, without calling `body`.
    static func withScannedLink(_ text: String, policy: LinkPolicy, _ body: (LinkView) -> Void) -> LinkError? {
        var text = text
        return text.withUTF8 { bytes in withScannedLink(bytes, policy: policy, body) }
    }

    static func withScannedLink(
        _ bytes: UnsafeBufferPointer<UInt8>, policy: LinkPolicy, _ body: (LinkView) -> Void
    ) -> LinkError? {
        // Like a browser's address bar, spaces and control characters around the link are not part of it.
        if let first = bytes.first, let last = bytes.last, first <= 0x20 || last <= 0x20 {
            var start = 0
            var end = bytes.count
            while start < end, bytes[start] <= 0x20 { start += 1 }
            while end > start, bytes[end - 1] <= 0x20 { end -= 1 }
            return withScannedLink(UnsafeBufferPointer(rebasing: bytes[start..<end]), policy: policy, body)
        }
        let origin: LinkView.OriginRef
        let pathStart: Int
        let queryStart: Int
        let end: Int
        do {
            guard let head = try scanHead(bytes, policy: policy) else {
                // Browsers read `\` as `/` before the query of an https link, host included: so does the scanner.
                var copy = Array(bytes)
                for i in copy.indices {
                    if copy[i] == question || copy[i] == hash { break }
                    if copy[i] == backslash { copy[i] = slash }
                }
                return copy.withUnsafeBufferPointer { withScannedLink($0, policy: policy, body) }
            }
            (origin, pathStart, queryStart, end) = head
        } catch {
            return error
        }
        let segmentCapacity = (queryStart - pathStart) / 2 + 1
        let itemCapacity = (end - queryStart) / 2 + 1
        let spanBytes = segmentCapacity * MemoryLayout<Span>.stride + itemCapacity * MemoryLayout<QuerySpan>.stride
        // One scratch allocation (on the stack when small): spans first, then the decoded bytes.
        return withUnsafeTemporaryAllocation(byteCount: spanBytes + max(1, end - pathStart), alignment: 8) { raw in
            let segments = UnsafeMutableBufferPointer(
                start: raw.baseAddress!.bindMemory(to: Span.self, capacity: segmentCapacity), count: segmentCapacity)
            let items = UnsafeMutableBufferPointer(
                start: (raw.baseAddress! + segmentCapacity * MemoryLayout<Span>.stride)
                    .bindMemory(to: QuerySpan.self, capacity: itemCapacity),
                count: itemCapacity)
            let decoded = UnsafeMutableBufferPointer(
                start: (raw.baseAddress! + spanBytes).bindMemory(to: UInt8.self, capacity: raw.count - spanBytes),
                count: raw.count - spanBytes)
            var n = 0
            let segmentCount: Int
            let itemCount: Int
            do throws(LinkError) {
                segmentCount = try splitPath(bytes, pathStart, queryStart, into: decoded, &n, segments)
                itemCount =
                    end - queryStart > 1 ? try splitQuery(bytes, queryStart + 1, end, into: decoded, &n, items) : 0
            } catch {
                return error
            }
            let view = LinkView(
                originRef: origin, raw: bytes, policy: policy.storage, decoded: UnsafeBufferPointer(decoded),
                segments: UnsafeBufferPointer(rebasing: segments[0..<segmentCount]),
                query: UnsafeBufferPointer(rebasing: items[0..<itemCount]))
            body(view)
            return nil
        }
    }

    /// Checks length, control characters, scheme and host; returns the origin, where the path starts, where the
    /// query starts (its `?`, or the end), and the end (before any fragment). `nil` for an https link with a
    /// backslash before its query, which must first be read as a slash.
    static func scanHead(
        _ bytes: UnsafeBufferPointer<UInt8>, policy: LinkPolicy
    ) throws(LinkError) -> (LinkView.OriginRef, Int, Int, Int)? {
        guard !bytes.isEmpty else { throw malformed("the link is empty") }
        guard bytes.count <= policy.maximumLength else {
            throw malformed("the link is \(bytes.count) bytes long; the limit is \(policy.maximumLength)")
        }
        var end = bytes.count
        var queryStart = -1
        var firstBackslash = -1
        var i = 0
        let base = bytes.baseAddress!
        scan: while i < bytes.count {
            // Eight bytes at a time while none is special (control, DEL, '?', '#', '\\').
            while i + 8 <= bytes.count, !mayHaveSpecialByte(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)) {
                i += 8
            }
            let chunkEnd = min(i + 8, bytes.count)
            while i < chunkEnd {
                let b = base[i]
                if b < 0x20 || b == 0x7F {
                    throw malformed("control character 0x\(String(b, radix: 16)) at byte \(i); percent-encode it")
                }
                if b == question, queryStart < 0 { queryStart = i }
                if b == backslash, firstBackslash < 0 { firstBackslash = i }
                if let control = bidiControl(base, i, bytes.count) {
                    throw malformed(bidiMessage(control, at: "byte \(i)"))
                }
                if b == hash {
                    end = i
                    break scan
                }
                i += 1
            }
        }
        if queryStart < 0 { queryStart = end }
        if bytes[0] == slash { return (.path, 0, queryStart, end) }
        guard let schemeEnd = schemeEnd(bytes, queryStart) else {
            throw malformed(
                "expected a scheme such as 'https:' or a path starting with '/' in '\(text(bytes[0..<end]))'")
        }
        let scheme = bytes[0..<schemeEnd]
        if asciiCaseInsensitiveEquals(scheme, https) {
            if firstBackslash >= 0, firstBackslash < queryStart { return nil }
            let (host, pathStart) = try scanAuthority(bytes, from: schemeEnd + 1, to: queryStart, policy: policy)
            return (host, pathStart, queryStart, end)
        }
        if let index = policy.schemeIndex(scheme) {
            // The authority of `shop://offers/SUMMER` is the first path segment: empty segments are skipped anyway.
            return (.scheme(index), schemeEnd + 1, queryStart, end)
        }
        if asciiCaseInsensitiveEquals(scheme, http) {
            throw LinkError(
                code: .schemeNotAllowed, reason: "'http:' links are not accepted; universal links use 'https:'")
        }
        let allowed = (policy.schemes + ["https"]).map { "'\($0):'" }.joined(separator: ", ")
        throw LinkError(
            code: .schemeNotAllowed, reason: "scheme '\(text(scheme)):' is not allowed; expected \(allowed)")
    }

    /// The index of the `:` ending a scheme (`ALPHA *(ALPHA / DIGIT / + / - / .)`), if the link starts with one.
    static func schemeEnd(_ bytes: UnsafeBufferPointer<UInt8>, _ end: Int) -> Int? {
        var i = 0
        while i < end {
            switch bytes[i] {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                break
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                if i == 0 { return nil }
            case colon:
                return i == 0 ? nil : i
            default:
                return nil
            }
            i += 1
        }
        return nil
    }

    /// Checks `//host[:port]` of a universal link; returns the lower-cased host and where the path starts.
    static func scanAuthority(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, policy: LinkPolicy
    ) throws(LinkError) -> (LinkView.OriginRef, Int) {
        guard start + 1 < end, bytes[start] == slash, bytes[start + 1] == slash else {
            throw malformed("an https link needs '//' and a host after 'https:'")
        }
        let hostStart = start + 2
        var authorityEnd = hostStart
        while authorityEnd < end, bytes[authorityEnd] != slash { authorityEnd += 1 }
        let authority = bytes[hostStart..<authorityEnd]
        if authority.contains(UInt8(ascii: "@")) {
            throw malformed("user information in '\(text(authority))' is not allowed; remove the part up to '@'")
        }
        guard !authority.isEmpty else { throw malformed("the https link has no host") }
        if authority.first == UInt8(ascii: "[") {
            throw LinkError(
                code: .hostNotAllowed, reason: "IP address hosts such as '\(text(authority))' are not allowed")
        }
        var hostEnd = authorityEnd
        if let portColon = authority.firstIndex(of: colon) {
            let port = bytes[(portColon + 1)..<authorityEnd]
            guard port.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                port.count <= 5, (Int(text(port)) ?? 0) <= 65535
            else {
                throw malformed("invalid port '\(text(port))' in '\(text(authority))': a port is a number up to 65535")
            }
            hostEnd = portColon
        }
        let host = bytes[hostStart..<hostEnd]
        try checkHostName(host)
        guard let match = policy.hostMatch(host) else {
            let allowed =
                policy.hosts.isEmpty ? "no hosts are configured" : "allowed: " + policy.hosts.joined(separator: ", ")
            throw LinkError(code: .hostNotAllowed, reason: "host '\(text(host))' is not allowed; \(allowed)")
        }
        if match >= 0 { return (.host(match), authorityEnd) }
        return (.wildcardHost(start: hostStart, end: hostEnd), authorityEnd)
    }

    /// Checks that a universal link's host is a DNS name a browser would open as written: ASCII letters, digits
    /// and `-` in non-empty labels separated by `.` (one trailing dot allowed).
    static func checkHostName(_ host: Slice<UnsafeBufferPointer<UInt8>>) throws(LinkError) {
        var labelLength = 0
        for (offset, b) in host.enumerated() {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                labelLength += 1
            case dot:
                guard labelLength > 0 else { throw malformed("host '\(text(host))' has an empty label") }
                labelLength = 0
            case 0x80...:
                throw malformed("host '\(text(host))' is not ASCII; write an internationalized host in its xn-- form")
            default:
                let character = String(decoding: [b], as: UTF8.self)
                throw malformed("host '\(text(host))' contains '\(character)' at offset \(offset)")
            }
        }
        guard labelLength > 0 || host.count > 1 else { throw malformed("the https link has no host") }
    }

    /// Splits `start..<end` at `/`, skipping empty segments, decoding each into `out` (with one `/` between);
    /// `.` segments are dropped and `..` drops the segment before it.
    static func splitPath(
        _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, into out: UnsafeMutableBufferPointer<UInt8>,
        _ n: inout Int, _ segments: UnsafeMutableBufferPointer<Span>
    ) throws(LinkError) -> Int {
        var count = 0
        var i = start
        let base = bytes.baseAddress!
        while i < end {
            if base[i] == slash {
                i += 1
                continue
            }
            let segmentStart = i
            let escaped: Bool
            (i, escaped) = segmentEnd(base, i, end)
            if count > 0 {
                out[n] = slash
                n += 1
            }
            let decodedStart = n
            if escaped {
                try decode(bytes, segmentStart, i, plusIsSpace: false, into: out, &n, what: "path segment")
            } else {
                (out.baseAddress! + n).update(from: base + segmentStart, count: i - segmentStart)
                n += i - segmentStart
            }
            // Dot segments, written plain or percent-encoded, are resolved as a browser resolves them.
            let length = n - decodedStart
            if length <= 2, out[decodedStart] == dot, length == 1 || out[decodedStart + 1] == dot {
                n = decodedStart - (count > 0 ? 1 : 0)
                if length == 2, count > 0 {
                    count -= 1
                    n = Int(segments[count].start) - (count > 0 ? 1 : 0)
                }
                continue
            }
            segments[count] = Span(start: Int32(decodedStart), end: Int32(n))
            count += 1
        }
        return count
    }

    /// Splits `start..<end` at `&` into items, each at its first `=`, decoding keys and values into `out`.
    static func splitQuery(
        _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, into out: UnsafeMutableBufferPointer<UInt8>,
        _ n: inout Int, _ items: UnsafeMutableBufferPointer<QuerySpan>
    ) throws(LinkError) -> Int {
        var count = 0
        var i = start
        while i < end {
            let itemStart = i
            var separator = -1
            while i < end, bytes[i] != ampersand {
                if bytes[i] == equals, separator < 0 { separator = i }
                i += 1
            }
            let itemEnd = i
            i += 1
            guard itemEnd > itemStart else { continue }
            let keyEnd = separator < 0 ? itemEnd : separator
            let keyStart = n
            try decode(bytes, itemStart, keyEnd, plusIsSpace: true, into: out, &n, what: "query key")
            let valueStart = n
            if separator >= 0 {
                try decode(bytes, separator + 1, itemEnd, plusIsSpace: true, into: out, &n, what: "query value")
            }
            items[count] = QuerySpan(
                key: Span(start: Int32(keyStart), end: Int32(valueStart)),
                value: Span(start: Int32(valueStart), end: Int32(n)))
            count += 1
        }
        return count
    }

    /// Copies `start..<end` into `out` at `n`, decoding `%XX` (and `+` when asked); decoded text must be UTF-8
    /// without control characters.
    @inline(__always)
    static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, plusIsSpace: Bool,
        into out: UnsafeMutableBufferPointer<UInt8>, _ n: inout Int, what: StaticString
    ) throws(LinkError) {
        let source = bytes.baseAddress!
        let target = out.baseAddress!
        var plain = true
        var k = start
        while k < end {
            let b = source[k]
            if b == percent || (plusIsSpace && b == plus) {
                plain = false
                break
            }
            k += 1
        }
        if plain {
            (target + n).update(from: source + start, count: end - start)
            n += end - start
            return
        }
        let first = n
        var i = start
        while i < end {
            let b = source[i]
            if b == percent {
                guard i + 2 < end, let hi = hexValue(source[i + 1]), let lo = hexValue(source[i + 2]) else {
                    throw malformed(
                        "invalid percent escape in \(what) '\(text(bytes[start..<end]))' at byte \(i); write '%' as %25"
                    )
                }
                target[n] = hi << 4 | lo
                i += 3
            } else {
                target[n] = plusIsSpace && b == plus ? UInt8(ascii: " ") : b
                i += 1
            }
            n += 1
        }
        let decoded = UnsafeBufferPointer(rebasing: out[first..<n])
        if decoded.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
            throw malformed("\(what) '\(text(bytes[start..<end]))' decodes to a control character")
        }
        for k in decoded.indices {
            if let control = bidiControl(decoded.baseAddress!, k, decoded.count) {
                throw malformed(bidiMessage(control, at: "\(what) '\(text(bytes[start..<end]))'"))
            }
        }
        guard UTF8Validation.isValid(decoded) else {
            throw malformed("\(what) '\(text(bytes[start..<end]))' does not decode to valid UTF-8")
        }
    }
}
