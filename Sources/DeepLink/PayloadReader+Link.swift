import JSON

/// The bare link format: a JSON string, or one line of plain text; never an object, so detection never answers it.
enum LinkFormat: PayloadFormatReader {
    static let format = PayloadFormat.link
    static let displayName = "bare link"
    static let hasSizeLimit = false
    static let expected: String? = nil
    static let misfit = "it is an object, not a link"

    static func detects<V: JSONReadable>(_ object: V, at stage: PayloadDetectionStage) -> Bool {
        false
    }

    static func fits<V: JSONReadable>(_ object: V) -> Bool {
        false
    }

    /// The string is the one candidate (`$`); an empty one is an error.
    static func read<V: JSONReadable>(
        _ root: V, by reader: PayloadReader, into collector: inout PayloadCollector
    ) throws(PayloadError) -> PayloadReading.Presentation {
        if let link = root.stringValue {
            guard !link.isEmpty else { throw PayloadError(.invalidValue, path: "", reason: "the link is empty") }
            collector.candidates.append(LinkCandidate(format: .link, field: "$", target: .link(link)))
        }
        return .shown(field: "$")
    }

    static func linkFields<V: JSONReadable>(_ root: V, by reader: PayloadReader) -> [String] {
        ["$"]
    }
}
