import DeepLink
import JSON

/// A decision's id.
///
/// The daemon's ids are UUIDs written in their canonical form (36 lowercase characters, such as
/// `019ad6f2-3c41-7a05-9f3e-0a1b2c3d4e5f`): such an id is kept as its 128 bits and its characters are written
/// where they go (a reply, a journal entry, the history), with no string made and nothing reference-counted on the
/// way. Any other text (ids given to tests and tools, or read back in another form) is kept as it is.
///
/// Two ids are equal when their texts are: a text in the canonical UUID form is always kept as bits, so each text
/// has one form.
public struct DecisionID: Sendable, Hashable, CustomStringConvertible {
    private enum Form: Sendable, Hashable {
        case uuid(high: UInt64, low: UInt64)
        case text(String)
    }

    private let form: Form

    /// The number of characters of a UUID's canonical form.
    public static let uuidLength = 36

    /// The UUID whose 128 bits are `high` then `low`.
    public init(uuidHigh high: UInt64, low: UInt64) {
        form = .uuid(high: high, low: low)
    }

    /// The id `text`: kept as bits when it is a UUID in canonical form (lowercase), as text otherwise.
    public init(_ text: String) {
        if let (high, low) = Self.uuidBits(text) {
            form = .uuid(high: high, low: low)
        } else {
            form = .text(text)
        }
    }

    /// True when the id is a UUID (its text: lowercase hexadecimal digits and `-`).
    public var isUUID: Bool {
        if case .uuid = form { return true }
        return false
    }

    /// The id's text.
    public var description: String {
        switch form {
        case .text(let text):
            return text
        case .uuid(let high, let low):
            return String(unsafeUninitializedCapacity: Self.uuidLength) { bytes in
                guard let base = bytes.baseAddress else { return 0 }
                PageUUID(high: high, low: low).write(into: base, uppercase: false)
                return Self.uuidLength
            }
        }
    }

    /// Appends the id's text, as it is (a UUID needs no JSON escaping; a text id is escaped by
    /// ``writeJSONString(into:)``).
    public func write(into out: inout ByteWriter) {
        switch form {
        case .text(let text):
            out.append(utf8: text)
        case .uuid(let high, let low):
            out.append(count: Self.uuidLength) { PageUUID(high: high, low: low).write(into: $0, uppercase: false) }
        }
    }

    /// Appends the id as a JSON string.
    public func writeJSONString(into out: inout ByteWriter) {
        switch form {
        case .text(let text):
            JSON.writeString(text, into: &out)
        case .uuid(let high, let low):
            out.append(count: Self.uuidLength + 2) { start in
                start.pointee = UInt8(ascii: "\"")
                PageUUID(high: high, low: low).write(into: start + 1, uppercase: false)
                start[Self.uuidLength + 1] = UInt8(ascii: "\"")
            }
        }
    }

    // MARK: the canonical form

    /// The bits of `text` when it is a UUID in canonical form: 32 lowercase hex digits with dashes after the 8th,
    /// 12th, 16th and 20th.
    private static func uuidBits(_ text: String) -> (UInt64, UInt64)? {
        var text = text
        return text.withUTF8 { PageUUID(utf8: $0, lowercaseOnly: true) }.map { ($0.high, $0.low) }
    }
}
