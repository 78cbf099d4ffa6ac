/// A one-dimensional PostgreSQL array of `text` or `bigint` in the binary format of a parameter (`array_recv`): a
/// header (dimensions, a flag, the element type, the length, the lower bound 1), then each element as its length in
/// bytes (−1 for NULL) and its bytes. Integers are big-endian.
///
/// The server reads such an array by copying its elements; the text form (`{"…","…"}`) it parses a byte at a time,
/// escapes included (docs/benchmarks.md, "The batch's statements reworked").
struct PGBinaryArray {
    enum Element {
        case text
        case bigint

        /// The type's OID in `pg_type`.
        var oid: UInt32 {
            switch self {
            case .text: 25
            case .bigint: 20
            }
        }
    }

    private(set) var count = 0
    private var body: [UInt8] = []
    private let element: Element

    init(of element: Element) {
        self.element = element
    }

    mutating func append(_ text: [UInt8]?) {
        precondition(element == .text, "a text element in an array of \(element)")
        guard let text else { return appendNull() }
        Self.write(UInt32(truncatingIfNeeded: text.count), into: &body)
        body.append(contentsOf: text)
        count += 1
    }

    mutating func append(_ text: String) {
        precondition(element == .text, "a text element in an array of \(element)")
        Self.write(UInt32(truncatingIfNeeded: text.utf8.count), into: &body)
        body.append(contentsOf: text.utf8)
        count += 1
    }

    mutating func append(_ number: Int64?) {
        precondition(element == .bigint, "a bigint element in an array of \(element)")
        guard let number else { return appendNull() }
        Self.write(UInt32(8), into: &body)
        Self.write(UInt64(bitPattern: number), into: &body)
        count += 1
    }

    private mutating func appendNull() {
        Self.write(UInt32.max, into: &body)  // −1: NULL
        count += 1
    }

    /// The parameter's bytes.
    var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(20 + body.count)
        guard count > 0 else {
            // No dimensions: the empty array.
            for word in [0, 0, element.oid] { Self.write(word, into: &out) }
            return out
        }
        // The flag says whether NULLs may occur; the server looks at each element's length anyway.
        for word in [1, 1, element.oid, UInt32(count), 1] { Self.write(word, into: &out) }
        out.append(contentsOf: body)
        return out
    }

    private static func write<T: FixedWidthInteger>(_ value: T, into out: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { out.append(contentsOf: $0) }
    }
}
