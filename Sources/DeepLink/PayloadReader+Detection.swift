import JSON

/// Which format a payload object is, from its shape.
extension PayloadReader {
    /// The format an object's shape shows. Each format's reader has a rule for each stage of detection: a key only
    /// it has (`aps`, a `message` object, `web_push`), then its own shape, then keys other formats have too; every
    /// format's rule of a stage is tried before any of the next, and the first that fits wins. The table in
    /// docs/payloads.md lists the rules in the order they are tried.
    public static func detectFormat(_ object: JSONObject) -> PayloadFormat? {
        detectFormat(JSON.object(object))?.format
    }

    /// The entry of the format an object's shape shows: each format's marker, then each one's shape, then each
    /// one's fallback, formats in the order of ``PayloadFormats/all``; see ``detectFormat(_:)-(JSONObject)``.
    static func detectFormat<V: PayloadJSON>(_ object: V) -> PayloadFormatEntry? {
        detectFormat(object, at: .marker) ?? detectFormat(object, at: .shape) ?? detectFormat(object, at: .fallback)
    }

    /// The first format whose rule for `stage` fits `object`.
    @inline(__always)
    static func detectFormat<V: PayloadJSON>(_ object: V, at stage: PayloadDetectionStage) -> PayloadFormatEntry? {
        for entry in PayloadFormats.all where entry.detects(object, at: stage) { return entry }
        return nil
    }

    /// The entry of the format to read `object` as: the forced one if it fits, else the detected one.
    static func format<V: PayloadJSON>(
        of object: V, forced: PayloadFormat?
    ) throws(PayloadError) -> PayloadFormatEntry {
        let detected = detectFormat(object)
        guard let forced else {
            guard let detected else { throw unknownFormat() }
            return detected
        }
        if let detected, detected.format == forced { return detected }
        let entry = PayloadFormats.entry(for: forced)
        if entry.fits(object) { return entry }
        let looks = detected.map { "; it looks like \($0.displayName) (\($0.format.rawValue))" } ?? ""
        throw PayloadError(
            .formatMismatch, path: "",
            reason: "the payload is not \(entry.displayName) (\(forced.rawValue)): \(entry.misfit)\(looks)")
    }

    /// The error for an object of no known format, naming what each format detection knows has.
    static func unknownFormat() -> PayloadError {
        let expected = PayloadFormat.allCases.compactMap { format in
            let entry = PayloadFormats.entry(for: format)
            return entry.expected.map { "\($0) (\(entry.displayName))" }
        }
        let list = expected.count > 1 ? expected.dropLast().joined(separator: ", ") + ", or " : ""
        return PayloadError(
            .unknownFormat, path: "",
            reason: "not a known payload format: expected " + list + (expected.last ?? "nothing"))
    }
}
