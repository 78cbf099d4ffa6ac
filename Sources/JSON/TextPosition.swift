/// The 1-based line and column of a byte offset in UTF-8 text, as error messages name places: a column counts
/// characters (bytes that do not continue a UTF-8 sequence), a line feed starts a new line.
///
/// Readers keep byte offsets (``JSONError/offset``, ``JSONTape/Value/offset``) and turn one into a line and column
/// only when they show it; a reader that needs many, in document order, moves one position forward.
public struct TextPosition: Sendable, Equatable {
    /// The offset the line and column are of.
    public private(set) var offset = 0
    /// 1-based.
    public private(set) var line = 1
    /// 1-based.
    public private(set) var column = 1

    /// The start of the text.
    public init() {}

    /// The position of `offset` in `bytes`.
    public init(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) {
        advance(to: offset, in: bytes)
    }

    /// The position of `offset` in `bytes`.
    public init(of offset: Int, in bytes: [UInt8]) {
        self.init()
        bytes.withUnsafeBufferPointer { advance(to: offset, in: $0) }
    }

    /// Moves forward to `target` (an offset at or after ``offset``, at most the text's length) in `bytes`.
    public mutating func advance(to target: Int, in bytes: UnsafeBufferPointer<UInt8>) {
        let end = min(max(target, offset), bytes.count)
        while offset < end {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            offset += 1
        }
        offset = max(target, offset)
    }
}
