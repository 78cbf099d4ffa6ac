/// The payload formats ``PayloadReader`` reads: the one list that registers each format's reader.
enum PayloadFormats {
    /// Every format, in the order detection tries them at each ``PayloadDetectionStage``: the order of the table in
    /// docs/payloads.md follows from it. Each ``PayloadFormat`` case is here once.
    static let all: [PayloadFormatEntry] = [
        PayloadFormatEntry(APNsFormat.self),
        PayloadFormatEntry(ExpoFormat.self),
        PayloadFormatEntry(FCMFormat.self),
        PayloadFormatEntry(NtfyFormat.self),
        PayloadFormatEntry(WebPushFormat.self),
        PayloadFormatEntry(FCMLegacyFormat.self),
        PayloadFormatEntry(GotifyFormat.self),
        PayloadFormatEntry(LinkFormat.self),
    ]

    /// The entry of `format`.
    static func entry(for format: PayloadFormat) -> PayloadFormatEntry {
        guard let entry = all.first(where: { $0.format == format }) else {
            fatalError("payload format \(format) is not in PayloadFormats.all")
        }
        return entry
    }
}
