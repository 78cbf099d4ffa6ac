import Glibc
import JSON

/// journald's native protocol, with the caller's source location as `CODE_FILE`/`CODE_LINE`/`CODE_FUNC`.
struct NativeJournalSink: JournalSink {
    let identifier: String

    func write(_ entry: JournalEntry) -> Bool {
        Systemd.sendJournal(
            fields: entry.journalFields(identifier: identifier), file: entry.fileID, line: entry.line,
            function: entry.function) >= 0
    }
}

/// One line per entry on a file descriptor (stderr): the lines of one wake-up of the writer thread go out in as few
/// `write` calls as fit (a line is never split between two calls unless it alone exceeds ``chunkSize``).
struct ConsoleSink: JournalSink {
    let identifier: String
    let descriptor: Int32
    private let pid = getpid()
    /// The most bytes gathered for one `write`.
    static let chunkSize = 64 * 1024

    func write(_ entry: JournalEntry) -> Bool {
        write(batch: [entry]) == 0
    }

    func write(batch entries: [JournalEntry]) -> Int {
        var failed = 0
        var chunk = ByteWriter(capacity: Swift.min(Self.chunkSize, entries.count * 256))
        var linesInChunk = 0
        for entry in entries {
            entry.writeConsoleLine(identifier: identifier, pid: pid, into: &chunk)
            linesInChunk += 1
            if chunk.count >= Self.chunkSize {
                if !writeAll(chunk) { failed += linesInChunk }
                chunk.truncate(to: 0)
                linesInChunk = 0
            }
        }
        if linesInChunk > 0, !writeAll(chunk) { failed += linesInChunk }
        return failed
    }

    /// Writes every byte, retrying short writes and `EINTR`; `false` on any other error.
    private func writeAll(_ chunk: borrowing ByteWriter) -> Bool {
        chunk.withBytes { bytes in
            guard let base = bytes.baseAddress else { return true }
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(descriptor, base + offset, bytes.count - offset)
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
struct DiscardingSink: JournalSink {
    func write(_ entry: JournalEntry) -> Bool { true }
}
