import Glibc
import JSON

/// journald's native protocol, with the caller's source location as `CODE_FILE`/`CODE_LINE`/`CODE_FUNC`.
///
/// `@unchecked Sendable`: made on one thread and then used only by the journal's writer thread (its scratch buffer).
final class NativeJournalSink: JournalSink, @unchecked Sendable {
    let identifier: String
    /// The fields the sink adds to each entry (used on the writer thread only).
    private var scratch = ByteWriter(capacity: 256)

    init(identifier: String) {
        self.identifier = identifier
    }

    func write(_ entry: borrowing JournalRecord) -> Int {
        let function = entry.function
        let sent = entry.withNativeFields(identifier: identifier, scratch: &scratch) { fields, codeFile, codeLine in
            Systemd.sendJournal(fields, codeFile: codeFile, codeLine: codeLine, function: function)
        }
        return sent >= 0 ? 0 : 1
    }
}

/// One line per entry on a file descriptor (stderr): the lines of one wake-up of the writer thread go out in as few
/// `write` calls as fit (a line is never split between two calls unless it alone exceeds ``chunkSize``).
///
/// `@unchecked Sendable`: made on one thread and then used only by the journal's writer thread (its chunk).
final class ConsoleSink: JournalSink, @unchecked Sendable {
    let identifier: String
    let descriptor: FileDescriptor
    private let pid = getpid()
    /// The lines gathered for the next `write` (used on the writer thread only).
    private var chunk = ByteWriter(capacity: 4_096)
    private var linesInChunk = 0
    /// The most bytes gathered for one `write`.
    static let chunkSize = 64 * 1024

    init(identifier: String, descriptor: FileDescriptor) {
        self.identifier = identifier
        self.descriptor = descriptor
    }

    func write(_ entry: borrowing JournalRecord) -> Int {
        entry.writeConsoleLine(identifier: identifier, pid: pid, into: &chunk)
        linesInChunk += 1
        return chunk.count >= Self.chunkSize ? flush() : 0
    }

    var renderedForm: RenderedEntries.Form { .consoleLines(identifier: identifier, pid: pid) }

    /// Lines rendered where they were logged go out as they are, after the lines gathered before them.
    func write(rendered entries: RenderedEntries, using record: inout JournalRecord) -> Int {
        guard entries.form == renderedForm else { return writeSaved(entries, using: &record) }
        if chunk.count + entries.bytes.count <= Self.chunkSize {
            entries.bytes.withBytes { chunk.append($0) }
            linesInChunk += entries.count
            return 0
        }
        let failed = flush()
        return failed + (writeAll(entries.bytes) ? 0 : entries.count)
    }

    func flush() -> Int {
        guard linesInChunk > 0 else { return 0 }
        let failed = writeAll(chunk) ? 0 : linesInChunk
        chunk.truncate(to: 0)
        linesInChunk = 0
        return failed
    }

    /// Writes every byte, retrying short writes and `EINTR`; `false` on any other error.
    private func writeAll(_ chunk: borrowing ByteWriter) -> Bool {
        chunk.withBytes { bytes in
            guard let base = bytes.baseAddress else { return true }
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(descriptor.rawValue, base + offset, bytes.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += n
            }
            return true
        }
    }
}

/// Accepts and forgets every entry.
final class DiscardingSink: JournalSink {
    func write(_ entry: borrowing JournalRecord) -> Int { 0 }
}
