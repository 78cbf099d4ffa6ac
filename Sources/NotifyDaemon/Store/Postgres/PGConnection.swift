import CLibPQ

/// One libpq connection: the only file that imports `CLibPQ`.
///
/// Parameters and results are text (libpq's text format): a parameter is UTF-8 bytes without a NUL, or `nil` for SQL
/// NULL. A connection that broke is reported as ``StoreError/Code/unavailable``; ``reconnect()`` opens it again and
/// prepares its statements anew. Not thread-safe: one thread at a time uses it.
final class PGConnection {
    /// The libpq connection string (URL or `key=value` pairs).
    let conninfo: String
    /// The connection string without a password, as `GetStats` and errors show it.
    let server: String
    private var handle: OpaquePointer?
    /// Statements prepared on every (re)connection, by name.
    private var prepared: [(name: String, sql: String)] = []

    /// Connects; throws ``StoreError/Code/unavailable`` with libpq's message when the server cannot be reached.
    init(conninfo: String) throws(StoreError) {
        self.conninfo = conninfo
        server = Self.withoutPassword(conninfo)
        try connect()
    }

    deinit {
        if let handle { PQfinish(handle) }
    }

    /// True while the connection is up (as far as libpq knows without asking the server).
    var isUp: Bool {
        guard let handle else { return false }
        return PQstatus(handle) == CONNECTION_OK
    }

    /// The server's version number (e.g. 150020), 0 when not connected.
    var serverVersion: Int { handle.map { Int(PQserverVersion($0)) } ?? 0 }

    private func connect() throws(StoreError) {
        if let handle { PQfinish(handle) }
        handle = PQconnectdb(conninfo)
        guard let handle, PQstatus(handle) == CONNECTION_OK else {
            let message = handle.map { Self.text(PQerrorMessage($0)) } ?? "out of memory"
            if let handle { PQfinish(handle) }
            self.handle = nil
            throw StoreError(code: .unavailable, message: "cannot connect to PostgreSQL: \(message)", path: server)
        }
        for statement in prepared { try prepareOnServer(statement.name, statement.sql) }
    }

    /// Opens the connection again (after the server restarted, or the network broke) and prepares its statements.
    func reconnect() throws(StoreError) {
        try connect()
    }

    /// Prepares `sql` as `name`, now and on every reconnection.
    func prepare(_ name: String, _ sql: String) throws(StoreError) {
        prepared.append((name, sql))
        try prepareOnServer(name, sql)
    }

    private func prepareOnServer(_ name: String, _ sql: String) throws(StoreError) {
        let result = PQprepare(handle, name, sql, 0, nil)
        defer { PQclear(result) }
        try check(result, "prepare \(name)")
    }

    /// Runs `sql` (several statements allowed, no parameters).
    func exec(_ sql: String, _ what: @autoclosure () -> String) throws(StoreError) {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result, what())
    }

    /// Runs `sql` with `parameters` (`$1`…) and returns its rows as text.
    func query(
        _ sql: String, _ parameters: [[UInt8]?] = [], _ what: @autoclosure () -> String
    ) throws(StoreError)
        -> PGRows
    {
        let result = Self.withParameters(parameters) { values, count in
            PQexecParams(handle, sql, count, nil, values, nil, nil, 0)
        }
        defer { if let result { PQclear(result) } }
        try check(result, what())
        return result.map(PGRows.init) ?? PGRows()
    }

    /// Runs the prepared statement `name` with `parameters`.
    func run(
        prepared name: String, _ parameters: [[UInt8]?], _ what: @autoclosure () -> String
    ) throws(StoreError)
        -> PGRows
    {
        let result = Self.withParameters(parameters) { values, count in
            PQexecPrepared(handle, name, count, values, nil, nil, 0)
        }
        defer { if let result { PQclear(result) } }
        try check(result, what())
        return result.map(PGRows.init) ?? PGRows()
    }

    /// One command of a pipeline: a prepared statement's name (or SQL without parameters when `name` is `nil`).
    struct Command {
        var name: String?
        var sql: String = ""
        var parameters: [[UInt8]?] = []
        /// Parameters in PostgreSQL's binary format (``PGBinaryArray``) rather than text: the server copies a binary
        /// array's elements instead of parsing them and their escapes.
        var binary = false
    }

    /// Sends `commands` in libpq's pipeline mode (one round trip), then reads each one's rows. The first command that
    /// fails aborts those after it (the server skips them), and its error is thrown: wrap the commands in
    /// `BEGIN`/`COMMIT` for all or nothing.
    func pipeline(_ commands: [Command], _ what: @autoclosure () -> String) throws(StoreError) -> [PGRows] {
        guard let handle, PQenterPipelineMode(handle) == 1 else {
            throw broken(what())
        }
        defer { _ = PQexitPipelineMode(handle) }
        for command in commands {
            let sent = Self.withParameters(command.parameters) { values, count in
                if let name = command.name {
                    guard command.binary else { return PQsendQueryPrepared(handle, name, count, values, nil, nil, 0) }
                    let lengths = command.parameters.map { Int32($0?.count ?? 0) }
                    let formats = [Int32](repeating: 1, count: command.parameters.count)
                    return PQsendQueryPrepared(handle, name, count, values, lengths, formats, 0)
                }
                return PQsendQueryParams(handle, command.sql, 0, nil, nil, nil, nil, 0)
            }
            guard sent == 1 else { throw broken(what()) }
        }
        guard PQpipelineSync(handle) == 1 else { throw broken(what()) }
        var rows: [PGRows] = []
        rows.reserveCapacity(commands.count)
        var failure: StoreError?
        var index = 0
        while true {
            guard let result = PQgetResult(handle) else {
                // The end of one command's results; a broken connection gives nothing more.
                index += 1
                if index > commands.count + 1 || PQstatus(handle) != CONNECTION_OK { throw failure ?? broken(what()) }
                continue
            }
            defer { PQclear(result) }
            let status = PQresultStatus(result)
            if status == PGRES_PIPELINE_SYNC { break }
            if status == PGRES_PIPELINE_ABORTED { continue }
            if failure == nil {
                do throws(StoreError) {
                    try check(result, what())
                    rows.append(PGRows(result))
                } catch {
                    failure = error
                }
            }
        }
        if let failure {
            // A failed command leaves an explicit transaction block aborted until it is rolled back.
            _ = PQexitPipelineMode(handle)
            if PQtransactionStatus(handle) == PQTRANS_INERROR || PQtransactionStatus(handle) == PQTRANS_INTRANS {
                if let result = PQexec(handle, "ROLLBACK") { PQclear(result) }
            }
            throw failure
        }
        return rows
    }

    /// The socket, to wait for notifications on; `nil` without a connection.
    var socket: FileDescriptor? {
        guard let handle else { return nil }
        let fd = PQsocket(handle)
        return fd >= 0 ? FileDescriptor(rawValue: fd) : nil
    }

    /// Reads what the server sent and returns the notifications received (`LISTEN`), channel and payload.
    func notifications() throws(StoreError) -> [(channel: String, payload: String)] {
        guard let handle, PQconsumeInput(handle) == 1 else { throw broken("read notifications") }
        var received: [(String, String)] = []
        while let notify = PQnotifies(handle) {
            received.append((Self.text(notify.pointee.relname), Self.text(notify.pointee.extra)))
            PQfreemem(notify)
        }
        return received
    }

    // MARK: Errors

    private func check(_ result: OpaquePointer?, _ what: String) throws(StoreError) {
        guard let result else { throw broken(what) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY: return
        default: break
        }
        let state = Self.text(PQresultErrorField(result, Int32(UInt8(ascii: "C"))))
        let message = Self.text(PQresultErrorMessage(result)).trimmingSuffix()
        let code: StoreError.Code
        switch state {
        case "40001", "40P01": code = .conflict
        case "08000", "08003", "08006", "08001", "08004", "57P01", "57P02", "57P03": code = .unavailable
        case "53100": code = .diskFull
        case "54000": code = .tooLarge
        default: code = isUp ? .postgres : .unavailable
        }
        throw StoreError(code: code, message: "cannot \(what): \(message) (SQLSTATE \(state))", path: server)
    }

    private func broken(_ what: String) -> StoreError {
        let message = handle.map { Self.text(PQerrorMessage($0)).trimmingSuffix() } ?? "not connected"
        return StoreError(code: .unavailable, message: "cannot \(what): \(message)", path: server)
    }

    private static func text(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }

    private static func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }

    /// Calls `body` with the parameters as NUL-terminated C strings (`nil` for NULL).
    private static func withParameters<R>(
        _ parameters: [[UInt8]?], _ body: (UnsafePointer<UnsafePointer<CChar>?>?, Int32) -> R
    ) -> R {
        var copies: [UnsafeMutablePointer<CChar>?] = []
        copies.reserveCapacity(parameters.count)
        defer { for copy in copies { copy?.deallocate() } }
        for parameter in parameters {
            guard let bytes = parameter else {
                copies.append(nil)
                continue
            }
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            bytes.withUnsafeBufferPointer { source in
                UnsafeMutableRawPointer(copy).copyMemory(from: source.baseAddress!, byteCount: bytes.count)
            }
            copy[bytes.count] = 0
            copies.append(copy)
        }
        return copies.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: max(1, buffer.count)) {
                body(buffer.isEmpty ? nil : $0, Int32(buffer.count))
            }
        }
    }

    /// `conninfo` with any password left out, in either form.
    static func withoutPassword(_ conninfo: String) -> String {
        if conninfo.hasPrefix("postgres") {
            // postgresql://user:password@host/…: the userinfo ends at the first "@" after the scheme.
            guard let at = conninfo.firstIndex(of: "@"), let slash = conninfo.firstIndex(of: "/"), slash < at else {
                return conninfo
            }
            let start = conninfo.index(slash, offsetBy: 2, limitedBy: at) ?? at
            guard let colon = conninfo[start..<at].firstIndex(of: ":") else { return conninfo }
            return String(conninfo[..<colon]) + String(conninfo[at...])
        }
        return conninfo.split(separator: " ").filter { !$0.hasPrefix("password=") }.joined(separator: " ")
    }
}

@available(*, unavailable, message: "one thread at a time uses a connection")
extension PGConnection: Sendable {}

/// The rows of one result, as text (`nil` for NULL), and how many rows the command changed.
struct PGRows {
    var rows: [[String?]] = []
    var changed = 0

    init() {}

    init(_ result: OpaquePointer) {
        let count = PQntuples(result)
        let columns = PQnfields(result)
        rows.reserveCapacity(Int(count))
        for r in 0..<count {
            var row: [String?] = []
            row.reserveCapacity(Int(columns))
            for c in 0..<columns {
                row.append(PQgetisnull(result, r, c) == 1 ? nil : String(cString: PQgetvalue(result, r, c)))
            }
            rows.append(row)
        }
        changed = Int(String(cString: PQcmdTuples(result))) ?? 0
    }
}

extension String {
    /// The text without its trailing newlines and spaces (libpq's messages end with one).
    fileprivate func trimmingSuffix() -> String {
        var s = Substring(self)
        while let last = s.last, last == "\n" || last == " " { s = s.dropLast() }
        return String(s)
    }
}
