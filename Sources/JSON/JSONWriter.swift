extension JSON {
    /// Appends the compact JSON text of this value to `out` as UTF-8.
    ///
    /// Control characters, quotes and backslashes in strings are escaped; other characters are
    /// written as UTF-8. Object keys keep their order.
    public func write(into out: inout ByteWriter) {
        switch self {
        case .null: JSON.writeRaw("null", into: &out)
        case .bool(let b):
            b ? JSON.writeRaw("true", into: &out) : JSON.writeRaw("false", into: &out)
        case .int(let i): JSON.writeInt(i, into: &out)
        case .double(let d):
            if d.isFinite {
                if d.rounded() == d, abs(d) < 1e15 {
                    if d == 0, d.sign == .minus { out.append(UInt8(ascii: "-")) }
                    JSON.writeInt(Int(d), into: &out)
                    out.append(".0")
                } else {
                    out.append(utf8: d.description)
                }
            } else {
                JSON.writeRaw("null", into: &out)
            }
        case .string(let s): JSON.writeString(s, into: &out)
        case .array(let a):
            out.append(UInt8(ascii: "["))
            for (i, v) in a.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                v.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let o):
            out.append(UInt8(ascii: "{"))
            for (i, member) in o.members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSON.writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                member.value.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// The compact JSON text of this value.
    public var serialized: String {
        var out = ByteWriter(capacity: 128)
        write(into: &out)
        return out.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// The JSON text indented by `indent` spaces per level, one key or element per line.
    public func prettyPrinted(indent: Int = 2) -> String {
        var out = ByteWriter(capacity: 256)
        writePretty(into: &out, level: 0, indent: indent)
        return out.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    func writePretty(into out: inout ByteWriter, level: Int, indent: Int) {
        func newline(_ level: Int, _ out: inout ByteWriter) {
            out.append(0x0A)
            out.append(repeating: 0x20, count: level * indent)
        }
        switch self {
        case .array(let a) where !a.isEmpty:
            out.append(UInt8(ascii: "["))
            for (i, v) in a.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(level + 1, &out)
                v.writePretty(into: &out, level: level + 1, indent: indent)
            }
            newline(level, &out)
            out.append(UInt8(ascii: "]"))
        case .object(let o) where !o.isEmpty:
            out.append(UInt8(ascii: "{"))
            var first = true
            for (k, v) in o {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                newline(level + 1, &out)
                JSON.writeString(k, into: &out)
                out.append(": ")
                v.writePretty(into: &out, level: level + 1, indent: indent)
            }
            newline(level, &out)
            out.append(UInt8(ascii: "}"))
        default:
            write(into: &out)
        }
    }

    /// Appends `value` in decimal.
    public static func writeInt(_ value: Int, into out: inout ByteWriter) {
        if value == 0 {
            out.append(UInt8(ascii: "0"))
            return
        }
        var magnitude = value.magnitude
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            while magnitude > 0 {
                buffer[19 - count] = UInt8(magnitude % 10) + UInt8(ascii: "0")
                magnitude /= 10
                count += 1
            }
            if value < 0 { out.append(UInt8(ascii: "-")) }
            if let base = buffer.baseAddress { out.append(base + (20 - count), count: count) }
        }
    }

    static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends literal text (punctuation, `null`, …) without allocating.
    @inlinable @inline(__always)
    public static func writeRaw(_ text: StaticString, into out: inout ByteWriter) {
        out.append(text)
    }

    /// Appends `"key":` (a member name and its colon) for writers that emit objects of fixed shape.
    @inlinable @inline(__always)
    public static func writeKey(_ key: StaticString, into out: inout ByteWriter) {
        out.append(0x22)
        out.append(key)
        out.append(0x22)
        out.append(0x3A)
    }

    /// Appends a string member, `,"key":"value"` (`null` for `nil`; no leading comma when `first`), for writers
    /// that emit objects of fixed shape.
    public static func writeMember(
        _ key: StaticString, _ value: String?, first: Bool = false, into out: inout ByteWriter
    ) {
        if !first { out.append(UInt8(ascii: ",")) }
        writeKey(key, into: &out)
        writeString(value, into: &out)
    }

    /// Appends `s` as a quoted JSON string, or `null` when it is `nil`.
    public static func writeString(_ s: String?, into out: inout ByteWriter) {
        guard let s else {
            writeRaw("null", into: &out)
            return
        }
        writeString(s, into: &out)
    }

    /// Appends `s` as a quoted JSON string.
    public static func writeString(_ s: String, into out: inout ByteWriter) {
        out.append(0x22)
        writeStringContents(s, into: &out)
        out.append(0x22)
    }

    /// Appends `s` with the escapes of a JSON string but without its quotes, for a string written in parts
    /// (`"` + part + part + `"` is the JSON string of the parts joined).
    public static func writeStringContents(_ s: String, into out: inout ByteWriter) {
        // A short string with nothing to escape (most names and values) in one step, others by runs and bytes.
        if let (words, count) = UTF8Bytes.short(s), out.appendIfPlain(words, count: count, orDelete: false) { return }
        UTF8Bytes.with(s) { writeEscaped($0, into: &out) }
    }

    /// Appends UTF-8 `bytes` as a quoted JSON string.
    public static func writeString(utf8 bytes: UnsafeBufferPointer<UInt8>, into out: inout ByteWriter) {
        out.append(0x22)
        writeEscaped(bytes, into: &out)
        out.append(0x22)
    }

    /// Appends UTF-8 `bytes` with the escapes of a JSON string, without quotes: runs that need none are copied whole.
    private static func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout ByteWriter) {
        guard let base = bytes.baseAddress else { return }
        var runStart = 0
        var high: UInt64 = 0
        var i = PlainBytes.skipWords(in: base, from: 0, to: bytes.count, high: &high)
        while i < bytes.count {
            let b = bytes[i]
            if b >= 0x20 && b != 0x22 && b != 0x5C {
                i += 1
                continue
            }
            out.append(base + runStart, count: i - runStart)
            out.append(0x5C)
            switch b {
            case 0x22: out.append(0x22)
            case 0x5C: out.append(0x5C)
            case 0x0A: out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(UInt8(ascii: "r"))
            case 0x09: out.append(UInt8(ascii: "t"))
            default:
                out.append(UInt8(ascii: "u"))
                out.append(0x30)
                out.append(0x30)
                out.append(hexDigits[Int(b >> 4)])
                out.append(hexDigits[Int(b & 0xF)])
            }
            i += 1
            runStart = i
            i = PlainBytes.skipWords(in: base, from: i, to: bytes.count, high: &high)
        }
        out.append(base + runStart, count: bytes.count - runStart)
    }
}

extension JSON: CustomStringConvertible {
    public var description: String { serialized }
}

extension JSONObject {
    /// An object from pairs whose keys are distinct, in order, built without looking each key up: for writers
    /// that build objects of fixed shape on a hot path (a repeated key is a programmer mistake).
    public init(distinctKeysWithValues pairs: KeyValuePairs<String, JSON>) {
        self.init()
        reserveCapacity(pairs.count)
        for (key, value) in pairs {
            assert(self[key] == nil, "repeated key \(key)")
            appendUnchecked(key, value)
        }
    }

    /// Appends a key the object does not have yet, without looking it up (a repeated key is a programmer
    /// mistake).
    public mutating func appendDistinct(_ key: String, _ value: JSON) {
        assert(self[key] == nil, "repeated key \(key)")
        appendUnchecked(key, value)
    }
}

/// A value that writes its own compact JSON text, for callers that write it later or on another thread (the state
/// store serializes device states on its own thread).
public protocol JSONWritable: Sendable {
    /// Appends the value's compact JSON text.
    func writeJSON(into out: inout ByteWriter)
}

/// The compact text of one JSON value, kept as bytes: written once on a hot path, spliced into replies and stored
/// as is, parsed only when someone reads it back.
public struct JSONText: Sendable, Hashable {
    /// The UTF-8 text.
    public var bytes: [UInt8]

    /// Text someone else serialized; it must be one complete JSON value.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The compact text of `value`.
    public init(_ value: JSON) {
        var out = ByteWriter(capacity: 256)
        value.write(into: &out)
        bytes = out.finish()
    }

    /// The compact text `value` writes.
    public init(writing value: some JSONWritable, capacity: Int = 256) {
        var out = ByteWriter(capacity: capacity)
        value.writeJSON(into: &out)
        bytes = out.finish()
    }

    /// The value the text holds.
    public func parsed() throws(JSONError) -> JSON {
        try JSON.parse(bytes)
    }
}
