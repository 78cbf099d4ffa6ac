import JSON

/// Turns a notification payload (APNs, FCM HTTP v1, FCM legacy, ntfy, Gotify, or a bare link) into candidate links.
///
/// The format is detected from the payload's shape unless ``PayloadOptions/format`` forces one. Each candidate says
/// which field it came from; the reader validates what it reads and reports problems as ``PayloadError`` values
/// that name the JSON path. Reading is pure and allocation-light: no Foundation, no regular expressions.
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
    public func read(bytes: UnsafeRawBufferPointer) throws(PayloadError) -> PayloadReading {
        var tape = JSONTape(capacity: bytes.count / 8 + 16)
        if tape.parse(bytes) {
            return try tape.withRoot(bytes) { (root) throws(PayloadError) in try read(root, byteCount: bytes.count) }
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
        return try read(json, byteCount: bytes.count)
    }

    /// Reads a payload given as bytes; see ``read(bytes:)-(UnsafeRawBufferPointer)``.
    public func read(bytes: [UInt8]) throws(PayloadError) -> PayloadReading {
        do {
            return try bytes.withUnsafeBytes { raw throws(PayloadError) in try read(bytes: raw) }
        } catch let error as PayloadError {
            throw error
        } catch {
            fatalError("unreachable: \(error)")
        }
    }

    /// Reads an already parsed payload.
    ///
    /// - Parameter byteCount: the size of the JSON text the value came from, for strict mode's size limit; when
    ///   `nil` and strict mode applies, the value is serialized to measure it.
    public func read(_ json: JSON, byteCount: Int? = nil) throws(PayloadError) -> PayloadReading {
        try read(value: json, byteCount: byteCount)
    }

    /// Reads a payload from a tape (the daemon's way: no tree is built); the same reading as from its tree.
    public func read(_ value: JSONTape.Value, byteCount: Int? = nil) throws(PayloadError) -> PayloadReading {
        try read(value: value, byteCount: byteCount)
    }

    func read<V: JSONReadable>(value json: V, byteCount: Int?) throws(PayloadError) -> PayloadReading {
        let format: PayloadFormat
        let link = json.stringValue
        if link != nil {
            if let forced = options.format, forced != .link {
                throw PayloadError(
                    .formatMismatch, path: "",
                    reason: "the payload is a string (a bare link), not the \(forced.displayName) payload asked for")
            }
            format = .link
        } else if json.isObject {
            format = try PayloadReader.format(of: json, forced: options.format)
        } else {
            throw PayloadError(
                .notAnObject, path: "",
                reason: "expected an object (a notification payload) or a string (a link), found \(json.kindName)")
        }

        if options.strict, format.hasSizeLimit {
            let size = byteCount ?? json.json.serialized.utf8.count
            if size > options.maxStrictBytes {
                throw PayloadError(
                    .tooLarge, path: "",
                    reason:
                        "the payload is \(size) bytes; \(format.displayName) accepts at most \(options.maxStrictBytes)",
                    size: size, maxSize: options.maxStrictBytes)
            }
        }

        var collector = PayloadCollector()
        // Room for the candidates of most payloads (FCM's data, webpush and apns links): one allocation, not three.
        collector.candidates.reserveCapacity(4)
        if let link {
            guard !link.isEmpty else { throw PayloadError(.invalidValue, path: "", reason: "the link is empty") }
            collector.candidates.append(LinkCandidate(format: .link, field: "$", target: .link(link)))
        } else {
            switch format {
            case .apns: try readAPNs(json, fields: fields.apns, format: .apns, into: &collector)
            case .fcm: try readFCM(json, into: &collector)
            case .fcmLegacy: try readFCMLegacy(json, into: &collector)
            case .ntfy: try readNtfy(json, into: &collector)
            case .gotify: try readGotify(json, into: &collector)
            case .link: break  // format(of:) never answers .link for an object
            }
            if collector.candidates.isEmpty { throw noLink(format, json, collector) }
        }
        return PayloadReading(format: format, candidates: collector.candidates, warnings: collector.warnings)
    }

    // MARK: - Formats

    /// The format an object's shape shows, first match wins: `aps` → APNs; a `message` object → FCM v1; a `topic`
    /// string → ntfy; `extras` → Gotify; `to`, `registration_ids`, `condition`, `notification` or `data` → FCM
    /// legacy; a `message` string → Gotify.
    public static func detectFormat(_ object: JSONObject) -> PayloadFormat? {
        detectFormat(JSON.object(object))
    }

    /// The format an object's shape shows; see ``detectFormat(_:)-(JSONObject)``.
    static func detectFormat<V: JSONReadable>(_ object: V) -> PayloadFormat? {
        if object["aps"] != nil { return .apns }
        let message = object["message"]
        if message?.isObject == true { return .fcm }
        if object["topic"]?.stringValue != nil { return .ntfy }
        if object["extras"] != nil { return .gotify }
        for key in legacyKeys where object[key] != nil { return .fcmLegacy }
        if message?.stringValue != nil { return .gotify }
        return nil
    }

    static let legacyKeys = ["to", "registration_ids", "condition", "notification", "data"]

    /// The format to read `object` as: the forced one if it fits, else the detected one.
    static func format<V: JSONReadable>(of object: V, forced: PayloadFormat?) throws(PayloadError) -> PayloadFormat {
        let detected = detectFormat(object)
        guard let forced else {
            guard let detected else {
                throw PayloadError(
                    .unknownFormat, path: "",
                    reason: "not a known payload format: expected 'aps' (APNs), a 'message' object (FCM HTTP v1), "
                        + "'to', 'registration_ids', 'data' or 'notification' (FCM legacy), 'topic' (ntfy), "
                        + "or 'extras' or a 'message' string (Gotify)")
            }
            return detected
        }
        if detected == forced { return forced }
        let missing: String
        switch forced {
        case .apns:
            if object["aps"] == nil { missing = "it has no 'aps' dictionary" } else { return forced }
        case .fcm:
            if object["message"]?.isObject == true { return forced }
            missing = "it has no 'message' object"
        case .fcmLegacy:
            if legacyKeys.contains(where: { object[$0] != nil }) { return forced }
            missing = "it has none of 'to', 'registration_ids', 'condition', 'notification', 'data'"
        case .ntfy:
            if object["topic"]?.stringValue != nil { return forced }
            missing = "it has no 'topic' string"
        case .gotify:
            if object["message"]?.stringValue != nil { return forced }
            if object["extras"] != nil { return forced }
            missing = "it has no 'message' string and no 'extras'"
        case .link:
            missing = "it is an object, not a link"
        }
        let looks = detected.map { "; it looks like \($0.displayName) (\($0.rawValue))" } ?? ""
        throw PayloadError(
            .formatMismatch, path: "",
            reason: "the payload is not \(forced.displayName) (\(forced.rawValue)): \(missing)\(looks)")
    }

    // MARK: - Shared pieces

    /// Appends a link candidate for `value` at `field`. `null` counts as absent and an empty string is skipped
    /// with a warning; any other non-string is a `wrongType` error.
    func appendLink<V: JSONReadable>(
        _ value: V, field: @autoclosure () -> String, format: PayloadFormat, into collector: inout PayloadCollector
    ) throws(PayloadError) {
        if let link = value.stringValue {
            if !link.isEmpty {
                collector.candidates.append(LinkCandidate(format: format, field: field(), target: .link(link)))
            } else {
                let path = field()
                collector.warnings.append(PayloadWarning(path: path, message: "the link is empty; ignored"))
                collector.notes.append("\(path) is empty")
            }
        } else if !value.isNull {
            throw PayloadPath.wrongType(field(), expected: "a link string", found: value)
        }
    }

    /// Appends the page candidate for category `name` when the options map it, reading `$key` arguments through
    /// `lookup`. Returns false when the category is not mapped. `keyParent` is the path of the object `lookup`
    /// reads, for messages.
    @discardableResult
    func appendCategory(
        _ name: String, field: @autoclosure () -> String, format: PayloadFormat, keyParent: String,
        lookup: (String) -> JSON?, into collector: inout PayloadCollector
    ) -> Bool {
        guard let expression = fields.categories[name] else { return false }
        var unusable: JSON? = nil
        let substituted = expression.substitute { key in
            guard let value = lookup(key) else { return nil }
            guard let text = PayloadPath.argumentText(value) else {
                unusable = value
                return nil
            }
            return text
        }
        switch substituted {
        case .success(let arguments):
            let target = LinkCandidate.Target.page(expression.page, arguments: arguments, category: name)
            collector.candidates.append(LinkCandidate(format: format, field: field(), target: target))
        case .failure(let missing):
            let keyPath = PayloadPath.shown(PayloadPath.child(keyParent, missing.key))
            let problem: String
            if let unusable {
                let kind = unusable.isNull ? "null" : (unusable.kindName == "array" ? "an array" : "an object")
                problem = "its value at \(keyPath) is \(kind), not a string or a number"
            } else {
                problem =
                    "the payload has no \(keyParent.isEmpty ? "top-level key" : "key") '\(missing.key)' (at \(keyPath))"
            }
            let message = "category '\(name)' (\(expression)) skipped: it reads $\(missing.key), but \(problem)"
            collector.warnings.append(PayloadWarning(path: field(), message: message))
            collector.notes.append(message)
        }
        return true
    }

    /// The `noLink` error for a payload with no candidates, listing the fields looked at.
    func noLink<V: JSONReadable>(_ format: PayloadFormat, _ object: V, _ collector: PayloadCollector) -> PayloadError {
        let looked: [String]
        switch format {
        case .apns: looked = apnsFields(object, fields: fields.apns)
        case .fcm: looked = fcmFields(object)
        case .fcmLegacy: looked = fcmLegacyFields()
        case .ntfy: looked = ["click", "actions[].url (view actions)"]
        case .gotify: looked = gotifyFields()
        case .link: looked = []
        }
        var reason = "no link in the \(format.displayName) payload; looked at " + looked.joined(separator: ", ")
        for note in collector.notes { reason += "; " + note }
        return PayloadError(.noLink, path: "", reason: reason)
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
