import JSON

/// Everything ``PayloadReader`` knows of one payload format: its names, how a payload shows it, where links are
/// looked for, and how it is read.
///
/// A format is a ``PayloadFormat`` case (its wire name), a type conforming to this protocol in the format's reader
/// file (`PayloadReader+<Format>.swift`), and that type's place in ``PayloadFormats/all``. Requirements are static:
/// a format has no state of its own, and the ``PayloadReader`` handed in holds the options and field paths.
protocol PayloadFormatReader: SendableMetatype {
    /// The format's case.
    static var format: PayloadFormat { get }
    /// The name people use for the format, for messages: `APNs`, `FCM`, …
    static var displayName: String { get }
    /// True when the format's services cap a payload at 4096 bytes; strict mode enforces it.
    static var hasSizeLimit: Bool { get }
    /// What a payload of this format has, for the error on a payload of no known format (`'aps'` for APNs); `nil`
    /// for a format detection never answers.
    static var expected: String? { get }
    /// What a payload forced to this format lacks when ``fits(_:)`` says it does not fit: `it has no 'aps'
    /// dictionary`.
    static var misfit: String { get }

    /// True when `object`'s shape shows this format at `stage` of detection (see ``PayloadDetectionStage``).
    static func detects<V: JSONReadable>(_ object: V, at stage: PayloadDetectionStage) -> Bool
    /// True when `object` can be read as this format when a payload is forced to it, whatever its shape shows.
    static func fits<V: JSONReadable>(_ object: V) -> Bool
    /// Reads a payload of this format (an object, or a string for a bare link) and says what it shows.
    static func read<V: JSONReadable>(
        _ root: V, by reader: PayloadReader, into collector: inout PayloadCollector
    ) throws(PayloadError) -> PayloadReading.Presentation
    /// The fields a payload of this format is searched for links, in order, for the no-link message and the trace.
    static func linkFields<V: JSONReadable>(_ root: V, by reader: PayloadReader) -> [String]
}

/// The stages of detection. Every format's rule for one stage is tried, in the order of ``PayloadFormats/all``,
/// before any rule of the next: a key only one format has decides before a shape that two formats can share.
enum PayloadDetectionStage {
    /// A key that only this format has (`aps`, a `message` object, `web_push`).
    case marker
    /// The format's own shape (an Expo push token, an Admin SDK target beside a message member, ntfy's keys, Web
    /// Notification options, `extras`).
    case shape
    /// Keys other formats have too, tried when nothing more telling fits (`to`, `data`, a `message` string).
    case fallback
}

/// A registered format: its ``PayloadFormatReader``'s names and functions, the functions specialized for the JSON
/// tree and for the tape, so that a payload is read without a dynamic call on every JSON access.
///
/// A class, as the field tables are: reading a payload hands its entry around, which then costs a reference count,
/// not a copy of every string and function.
final class PayloadFormatEntry: Sendable {
    /// See ``PayloadFormatReader/format``.
    let format: PayloadFormat
    /// See ``PayloadFormatReader/displayName``.
    let displayName: String
    /// See ``PayloadFormatReader/hasSizeLimit``.
    let hasSizeLimit: Bool
    /// See ``PayloadFormatReader/expected``.
    let expected: String?
    /// See ``PayloadFormatReader/misfit``.
    let misfit: String
    /// The functions on a JSON tree.
    let tree: Functions<JSON>
    /// The functions on a tape.
    let tape: Functions<JSONTape.Value>

    /// The reader's functions on one kind of JSON value.
    struct Functions<V: JSONReadable & SendableMetatype>: Sendable {
        let detects: @Sendable (V, PayloadDetectionStage) -> Bool
        let fits: @Sendable (V) -> Bool
        let read:
            @Sendable (V, PayloadReader, inout PayloadCollector) throws(PayloadError) -> PayloadReading.Presentation
        let linkFields: @Sendable (V, PayloadReader) -> [String]

        init<Reader: PayloadFormatReader>(_ reader: Reader.Type) {
            detects = { Reader.detects($0, at: $1) }
            fits = { Reader.fits($0) }
            read = { (root, payloadReader, collector) throws(PayloadError) in
                try Reader.read(root, by: payloadReader, into: &collector)
            }
            linkFields = { Reader.linkFields($0, by: $1) }
        }
    }

    /// The entry of `reader`'s format.
    init<Reader: PayloadFormatReader>(_ reader: Reader.Type) {
        format = Reader.format
        displayName = Reader.displayName
        hasSizeLimit = Reader.hasSizeLimit
        expected = Reader.expected
        misfit = Reader.misfit
        tree = Functions(reader)
        tape = Functions(reader)
    }

    /// True when `object`'s shape shows this format at `stage`.
    @inline(__always)
    func detects<V: PayloadJSON>(_ object: V, at stage: PayloadDetectionStage) -> Bool {
        V.functions(of: self).detects(object, stage)
    }

    /// True when `object` can be read as this format when forced to it.
    @inline(__always)
    func fits<V: PayloadJSON>(_ object: V) -> Bool {
        V.functions(of: self).fits(object)
    }

    /// Reads a payload of this format.
    @inline(__always)
    func read<V: PayloadJSON>(
        _ root: V, by reader: PayloadReader, into collector: inout PayloadCollector
    ) throws(PayloadError) -> PayloadReading.Presentation {
        try V.functions(of: self).read(root, reader, &collector)
    }

    /// The fields a payload of this format is searched for links, in order, as one list.
    func linkFields<V: PayloadJSON>(_ root: V, by reader: PayloadReader) -> String {
        V.functions(of: self).linkFields(root, reader).joined(separator: ", ")
    }
}

/// A kind of JSON value that payloads are read from, the tree or the tape, which picks the entry functions
/// specialized for it.
protocol PayloadJSON: JSONReadable, SendableMetatype {
    /// `entry`'s functions on this kind of value.
    static func functions(of entry: PayloadFormatEntry) -> PayloadFormatEntry.Functions<Self>
}

extension JSON: PayloadJSON {
    @inline(__always)
    static func functions(of entry: PayloadFormatEntry) -> PayloadFormatEntry.Functions<JSON> { entry.tree }
}

extension JSONTape.Value: PayloadJSON {
    @inline(__always)
    static func functions(of entry: PayloadFormatEntry) -> PayloadFormatEntry.Functions<JSONTape.Value> {
        entry.tape
    }
}
