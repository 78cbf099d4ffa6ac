import Glibc

/// journald's native protocol, with the caller's source location as `CODE_FILE`/`CODE_LINE`/`CODE_FUNC`.
struct NativeJournalSink: JournalSink {
    let identifier: String

    func write(_ entry: JournalEntry) -> Bool {
        Systemd.sendJournal(
            fields: entry.journalFields(identifier: identifier), file: entry.fileID, line: entry.line,
            function: entry.function) >= 0
    }
}

/// One line per entry on a file descriptor (stderr), written with a single `write` where possible.
struct ConsoleSink: JournalSink {
    let identifier: String
    let descriptor: Int32
    private let pid = getpid()

    func write(_ entry: JournalEntry) -> Bool {
        var line: [UInt8] = []
        entry.writeConsoleLine(identifier: identifier, pid: pid, into: &line)
        return line.withUnsafeBufferPointer { bytes in
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
