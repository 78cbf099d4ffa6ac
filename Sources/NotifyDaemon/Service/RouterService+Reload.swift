import CoordinatorGraph
import Glibc
import JSON
import Varlink

extension RouterService {
    /// Reads and validates the config file again. A valid config replaces the loaded one for every
    /// later request; an invalid one is rejected with all its findings and the loaded one keeps serving.
    func reload() throws(VarlinkError) -> JSONObject {
        switch Self.loadConfig(path: settings.configPath) {
        case .success(let loaded):
            let generation = config.generation + 1
            config = ActiveConfig(loaded, generation: generation)
            // Cached states were decoded against the old graph; the store has them all.
            if store != nil { cache.removeAll(keepingCapacity: true) }
            journal.log(
                .configLoaded, priority: .info,
                message: "config \(settings.configPath) loaded (generation \(generation), "
                    + "\(loaded.graph.coordinators.count) coordinators, \(loaded.warnings.count) warnings)",
                fields: [(JournalField.config, settings.configPath)])
            onReload?(.success(generation))
            return ["generation": .int(generation), "warnings": .array(config.warnings.map(JSON.string))]
        case .failure(let problems):
            let findings = problems.findings
            journal.log(
                .configRejected, priority: .error,
                message: "config \(settings.configPath) rejected, still serving generation \(config.generation): "
                    + findings.joined(separator: "; "),
                fields: [
                    (JournalField.config, settings.configPath), (JournalField.reason, findings.joined(separator: "\n")),
                ])
            onReload?(.failure(problems))
            throw VarlinkError.configInvalid(errors: findings)
        }
    }

    /// Reads `path` and loads it; the failure lists every finding (or the read error).
    static func loadConfig(path: String) -> Result<LoadedConfig, ConfigProblems> {
        let bytes: [UInt8]
        do {
            bytes = try readFile(path)
        } catch {
            return .failure(ConfigProblems(findings: ["\(path): \(error)"]))
        }
        switch ConfigLoader.load(bytes, file: path) {
        case .success(let loaded): return .success(loaded)
        case .failure(let error): return .failure(ConfigProblems(findings: error.findings.map(\.description)))
        }
    }

    /// The whole file at `path`.
    static func readFile(_ path: String) throws(Errno) -> [UInt8] {
        let fd = try Sys.check("open(\(path))") { open(path, O_RDONLY | O_CLOEXEC) }
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
