import JSON

/// Turns a notification payload (APNs, FCM, FCM legacy, ntfy, Gotify, Web Push, Expo, or a bare link) into candidate
/// links and what the notification shows.
///
/// The format is detected from the payload's shape unless ``PayloadOptions/format`` forces one. Each candidate says
/// which field it came from; the reader validates what it reads and reports problems as ``PayloadError`` values
/// that name the JSON path. A value without a scheme that looks like an identifier (an Android intent action such
/// as `FLUTTER_NOTIFICATION_CLICK`, a window id) is not a link: it is looked up in the categories, as `aps.category`
/// is. Reading is pure and allocation-light: no Foundation, no regular expressions.
///
/// ```swift
/// let reader = PayloadReader(options: PayloadOptions(categories: ["ORDER_SHIPPED": expression]))
/// let reading = try reader.read(bytes: body)
/// for candidate in reading.candidates { ... }   // most authoritative first
/// ```
public struct PayloadReader: Sendable {
    /// Where links are looked for and how strictly.
    public let options: PayloadOptions

    /// Field paths worked out once, so that reading a payload builds no path strings.
    let fields: PayloadFields

    /// A reader with the given options.
    public init(options: PayloadOptions = PayloadOptions()) {
        self.options = options
        self.fields = PayloadFields(linkKeys: options.linkKeys, categories: options.categories)
    }

    /// Reads a payload given as bytes: JSON, or a one-line plain-text link.
    ///
    /// Text that is not JSON counts as a bare link when it does not start like JSON (`{`, `[`, `"`), is valid
    /// UTF-8 and holds one line (surrounding whitespace is trimmed); otherwise the JSON error is reported.
    public func read(
        bytes: UnsafeRawBufferPointer, headers: PushHeaders = PushHeaders(), explain: Bool = false
    ) throws(PayloadError) -> PayloadReading {
        var tape = JSONTape(capacity: bytes.count / 8 + 16)
        if tape.parse(bytes) {
            return try tape.withRoot(bytes) { (root) throws(PayloadError) in
                try read(value: root, byteCount: bytes.count, headers: headers, explain: explain)
            }
        }
        let json: JSON
        do throws(JSONError) {
            json = try JSON.parse(bytes)
        } catch {
            guard let text = PayloadReader.oneLineText(bytes) else {
                throw PayloadError(.invalidJSON, path: "", reason: error.description, cause: error)
            }
            json = .string(text)
        }
        return try read(value: json, byteCount: bytes.count, headers: headers, explain: explain)
    }

    /// Reads a payload given as bytes; see ``read(bytes:headers:explain:)-(UnsafeRawBufferPointer,_,_)``.
    public func read(
        bytes: [UInt8], headers: PushHeaders = PushHeaders(), explain: Bool = false
    ) throws(PayloadError) -> PayloadReading {
        do {
            return try bytes.withUnsafeBytes { raw throws(PayloadError) in
                try read(bytes: raw, headers: headers, explain: explain)
            }
        } catch let error as PayloadError {
            throw error
        } catch {
            fatalError("unreachable: \(error)")
        }
    }

    /// Reads an already parsed payload.
    ///
    /// - Parameters:
    ///   - byteCount: the size of the JSON text the value came from, for strict mode's size limit; when `nil` and
    ///     strict mode applies, the value is serialized to measure it.
    ///   - headers: the transport headers it came with.
    ///   - explain: also note which fields were looked at when none held a link, for the trace.
    public func read(
        _ json: JSON, byteCount: Int? = nil, headers: PushHeaders = PushHeaders(), explain: Bool = false
    ) throws(PayloadError) -> PayloadReading {
        try read(value: json, byteCount: byteCount, headers: headers, explain: explain)
    }

    /// Reads a payload from a tape (the daemon's way: no tree is built); the same reading as from its tree.
    public func read(
        _ value: JSONTape.Value, byteCount: Int? = nil, headers: PushHeaders = PushHeaders(), explain: Bool = false
    ) throws(PayloadError) -> PayloadReading {
        try read(value: value, byteCount: byteCount, headers: headers, explain: explain)
    }

    func read<V: PayloadJSON>(
        value json: V, byteCount: Int?, headers: PushHeaders, explain: Bool
    ) throws(PayloadError) -> PayloadReading {
        let entry: PayloadFormatEntry
        if json.isString {
            if let forced = options.format, forced != .link {
                throw PayloadError(
                    .formatMismatch, path: "",
                    reason: "the payload is a string (a bare link), not the \(forced.displayName) payload asked for")
            }
            entry = PayloadFormats.entry(for: .link)
        } else if json.isObject {
            entry = try PayloadReader.format(of: json, forced: options.format)
        } else {
            throw PayloadError(
                .notAnObject, path: "",
                reason: "expected an object (a notification payload) or a string (a link), found \(json.kindName)")
        }
        let format = entry.format

        if options.strict, entry.hasSizeLimit {
            let size = byteCount ?? json.json.serialized.utf8.count
            if size > options.maxStrictBytes {
                throw PayloadError(
                    .tooLarge, path: "",
                    reason:
                        "the payload is \(size) bytes; \(entry.displayName) accepts at most \(options.maxStrictBytes)",
                    size: size, maxSize: options.maxStrictBytes)
            }
        }

        var collector = PayloadCollector()
        // Room for the candidates of most payloads (FCM's data, webpush and apns links): one allocation, not three.
        collector.candidates.reserveCapacity(4)
        var presentation = try entry.read(json, by: self, into: &collector)
        if !headers.isEmpty { apply(headers, format: format, to: &presentation, collector: &collector) }
        if collector.candidates.isEmpty {
            if case .shown = presentation, options.unlinked == .error { throw noLink(entry, json, collector) }
            if explain { collector.notes.append(lookedAt(entry, json)) }
        }
        return PayloadReading(
            format: format, candidates: collector.candidates, presentation: presentation,
            warnings: collector.warnings, notes: collector.notes, topic: headers.topic)
    }

    /// Applies the transport headers: a push type that never navigates makes the push non-navigating; APNs headers
    /// on a payload that is neither APNs nor FCM are ignored with a warning.
    func apply(
        _ headers: PushHeaders, format: PayloadFormat, to presentation: inout PayloadReading.Presentation,
        collector: inout PayloadCollector
    ) {
        collector.warnings += headers.warnings
        guard headers.hasAPNsHeaders else { return }
        guard format == .apns || format == .fcm else {
            collector.warnings.append(
                PayloadWarning(
                    path: "headers",
                    message: "APNs headers apply to APNs and FCM payloads; this one is \(format.displayName): ignored"))
            return
        }
        if let (type, field) = headers.effectivePushType, !type.navigates {
            presentation = .nonNavigating(
                field: field, reason: "a \(type.rawValue) push (\(field)) is handled without navigating")
        }
    }

    /// Trimmed text when `bytes` can be a plain-text link: not JSON-looking, valid UTF-8, one line, not empty.
    static func oneLineText(_ bytes: UnsafeRawBufferPointer) -> String? {
        var start = 0
        var end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        guard start < end else { return nil }
        switch bytes[start] {
        case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""): return nil
        default: break
        }
        for i in start..<end where bytes[i] < 0x20 || bytes[i] == 0x7F { return nil }
        return String(validating: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    @inline(__always)
    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }
}
