import CoordinatorGraph
import Glibc
import JSON
import RouterContract
import Varlink

extension RouterService {
    /// Reads and validates the config file again. A valid config replaces the loaded one for every
    /// later request; an invalid one is rejected with all its findings and the loaded one keeps serving.
    ///
    /// Tells systemd `RELOADING=1` (with `MONOTONIC_USEC=`, and `EXTEND_TIMEOUT_USEC=` before parsing a large
    /// file) first; ``onReload`` then sends `READY=1`. SIGHUP and the `Reload` method both come here.
    ///
    /// Cached device states are kept: each is checked against the new graph when next used (``loadState(_:)``).
    /// Dropping them would make a later request of the same batch read the store, which does not hold the
    /// batch's writes yet, and overwrite a state already acknowledged.
    func reload() throws(VarlinkError) -> JSONObject {
        _ = Systemd.notify("RELOADING=1\nMONOTONIC_USEC=\(Sys.monotonicNanoseconds() / 1000)")
        switch Self.loadConfig(path: settings.configPath, beforeParsing: Self.extendTimeoutForLargeConfig) {
        case .success(let loaded):
            let generation = config.generation + 1
            config = ActiveConfig(loaded, generation: generation)
            loopJournal.log(
                .configLoaded, priority: .info,
                message: "config \(settings.configPath) loaded (generation \(generation), "
                    + "\(loaded.graph.coordinators.count) coordinators, \(loaded.warnings.count) warnings)",
                fields: [(JournalField.config, settings.configPath)])
            onReload?(.success(generation))
            return ["generation": .int(generation), "warnings": .array(config.warnings.map(JSON.string))]
        case .failure(let problems):
            let findings = problems.findings
            loopJournal.log(
                .configRejected, priority: .error,
                message: "config \(settings.configPath) rejected (\(Self.problems(findings.count))), "
                    + "still serving generation \(config.generation):",
                lines: findings,
                fields: [
                    (JournalField.config, settings.configPath), (JournalField.reason, findings.joined(separator: "; ")),
                ])
            onReload?(.failure(problems))
            throw VarlinkError.configInvalid(errors: findings, config: settings.configPath)
        }
    }

    /// "1 problem", "3 problems".
    static func problems(_ count: Int) -> String {
        count == 1 ? "1 problem" : "\(count) problems"
    }

    /// Configs from this size on may take a noticeable time to parse and validate (about half a second for a
    /// 10,000-page graph): systemd is asked for more time before, so the start or reload does not time out.
    static let largeConfigBytes = 256 * 1024

    /// The time asked for a config of `bytes` bytes: 10 s, plus 10 s per MiB (ten times what a release build
    /// needs, so that a busy machine has room too).
    static func loadTimeMicroseconds(bytes: Int) -> UInt64 {
        10_000_000 + UInt64(bytes) * 10_000_000 / (1 << 20)
    }

    /// Sends `EXTEND_TIMEOUT_USEC=` when `bytes` is a large config (a no-op outside systemd).
    static func extendTimeoutForLargeConfig(bytes: Int) {
        guard bytes >= largeConfigBytes else { return }
        _ = Systemd.notify("EXTEND_TIMEOUT_USEC=\(loadTimeMicroseconds(bytes: bytes))")
    }

    /// Reads `path` and loads it; the failure lists every finding (or the read error). `beforeParsing` is told the
    /// file's size once it is read.
    static func loadConfig(
        path: String, beforeParsing: (Int) -> Void = { _ in }
    ) -> Result<LoadedConfig, ConfigProblems> {
        let bytes: [UInt8]
        do {
            bytes = try readFile(path)
        } catch {
            return .failure(ConfigProblems(findings: ["\(path): \(error)"]))
        }
        beforeParsing(bytes.count)
        switch ConfigLoader.load(bytes, file: path) {
        case .success(let loaded): return .success(loaded)
        case .failure(let error): return .failure(ConfigProblems(findings: error.findings.map(\.description)))
        }
    }

    /// The whole file at `path`.
    static func readFile(_ path: String) throws(Errno) -> [UInt8] {
        let fd = try FileDescriptor(rawValue: Sys.check("open(\(path))") { open(path, O_RDONLY | O_CLOEXEC) })
        defer { Sys.close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            var failure: Errno?
            let n = chunk.withUnsafeMutableBytes { raw -> Int in
                do throws(Errno) {
                    return try Sys.read(fd, into: raw) ?? 0
                } catch {
                    failure = error
                    return 0
                }
            }
            if let failure { throw failure }
            if n == 0 { return out }
            out.append(contentsOf: chunk[..<n])
        }
    }
}

/// Every finding of a config that could not be loaded, as `file:line:column: error: …` lines.
struct ConfigProblems: Error {
    let findings: [String]
}
