#if canImport(Glibc)
import Glibc
#endif

/// Splits a varlink byte stream into messages, each terminated by a NUL byte.
///
/// Append bytes as they arrive with ``append(_:)`` (partial reads and many messages per read are
/// both fine), then take complete frames with ``nextFrame()`` until it returns `nil`. A frame is
/// the message's bytes without the NUL. Each byte is searched for NUL once and consumed bytes
/// are dropped lazily, so decoding is linear in the bytes received.
///
/// A message longer than ``maxMessageSize`` is an error as soon as that many bytes are buffered
/// without a NUL; the decoder does not wait for the terminator. After an error the decoder keeps
/// failing with it: the stream cannot be resynchronised and the connection should be closed.
public struct FrameDecoder: Sendable {
    /// The default bound on one message, 64 KiB (the NUL not counted).
    public static let defaultMaxMessageSize = 64 * 1024

    /// The largest message accepted, in bytes, the terminating NUL not counted.
    public let maxMessageSize: Int

    private var buffer: [UInt8] = []
    /// Start of the bytes not yet returned as a frame.
    private var start = 0
    /// Bytes before this index (and at or after `start`) are known to hold no NUL.
    private var scanned = 0
    private var failure: VarlinkProtocolError?

    /// A decoder that accepts messages up to `maxMessageSize` bytes.
    public init(maxMessageSize: Int = FrameDecoder.defaultMaxMessageSize) {
        precondition(maxMessageSize > 0, "maxMessageSize must be positive")
        self.maxMessageSize = maxMessageSize
    }

    /// The number of bytes received and not yet returned as frames.
    public var bufferedByteCount: Int { buffer.count - start }

    /// After a ``VarlinkProtocolError/Code/messageTooLarge`` failure thrown before the message's NUL
    /// arrived: the bytes of that message received so far (all of ``bufferedByteCount``); otherwise `nil`.
    /// A server that wants the message's full size reads on to the NUL itself, dropping the bytes.
    public private(set) var cutOffMessageBytes: Int?

    /// Appends received bytes.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        compactIfWorthwhile(incoming: bytes.count)
        buffer.append(contentsOf: bytes)
    }

    /// Appends received bytes.
    public mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Appends received bytes.
    public mutating func append(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Returns the next complete frame without its NUL, or `nil` when none is complete yet.
    ///
    /// An empty frame (a lone NUL) is returned as an empty slice; it is not a valid message and
    /// ``VarlinkCall/init(frame:maxDepth:)`` rejects it. The slice shares the decoder's storage
    /// until the next ``append(_:)``.
    ///
    /// - Throws: ``VarlinkProtocolError/Code/messageTooLarge`` when a message exceeds the limit,
    ///   whether or not its NUL has arrived.
    public mutating func nextFrame() throws(VarlinkProtocolError) -> ArraySlice<UInt8>? {
        if let failure { throw failure }
        let end = buffer.count
        let nul: Int? = buffer.withUnsafeBufferPointer { bytes in
            guard scanned < end, let base = bytes.baseAddress else { return nil }
            #if canImport(Glibc)
            guard let hit = memchr(base + scanned, 0, end - scanned) else { return nil }
            return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            #else
            return bytes[scanned..<end].firstIndex(of: 0)
            #endif
        }
        guard let nul else {
            scanned = end
            if end - start > maxMessageSize { throw fail(size: end - start, complete: false) }
            return nil
        }
        let frameStart = start
        if nul - frameStart > maxMessageSize { throw fail(size: nul - frameStart, complete: true) }
        start = nul + 1
        scanned = start
        return buffer[frameStart..<nul]
    }

    /// Gives back `frame`, the last one ``nextFrame()`` returned (no ``append(_:)`` since): the next call returns it
    /// again. A server that hands a connection to another thread puts back the call it did not handle.
    public mutating func unread(_ frame: ArraySlice<UInt8>) {
        precondition(frame.endIndex + 1 == start, "only the frame just returned can be put back")
        start = frame.startIndex
        scanned = start
    }

    private mutating func fail(size: Int, complete: Bool) -> VarlinkProtocolError {
        let error =
            complete
            ? VarlinkProtocolError.messageTooLarge(size: size, max: maxMessageSize, complete: true)
            : VarlinkProtocolError(
                .messageTooLarge, "more than \(maxMessageSize) bytes arrived without the NUL byte that ends a message",
                size: size)
        if !complete { cutOffMessageBytes = size }
        failure = error
        return error
    }

    /// Drops consumed bytes when that is cheap relative to the work already done.
    private mutating func compactIfWorthwhile(incoming: Int) {
        guard start > 0 else { return }
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
        } else if start >= buffer.count - start || buffer.count + incoming > buffer.capacity {
            // Moving the remainder costs at most what was consumed since the last move.
            buffer.removeSubrange(0..<start)
        } else {
            return
        }
        scanned -= start
        start = 0
    }
}
