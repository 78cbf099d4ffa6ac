import CoordinatorGraph
import JSON

/// The commands that need no daemon: `validate` (and `resolve`/`explain`/`send` with `--offline`, in
/// `Commands+Routing`).
extension Command {
    /// `validate CONFIG`: every finding of a config, compiler-style; exit 1 when there are errors.
    public static let validate = Command(
        name: "validate", summary: "Check a config file and print every problem as file:line:column",
        arguments: [ArgumentSpec("CONFIG", help: "The config file (YAML or JSON), e.g. config/shop.yaml")],
        discussion: "Every error and warning is reported at once, in file order:\n"
            + "  shop.yaml:42:7: error: unknown key 'kinds'; expected one of … [unknown-key]\n"
            + "Exit status 1 when there is an error; warnings alone leave it 0. With --json, one object:\n"
            + "  {file, valid, errors, warnings, coordinators, pages, findings: [{file, line, column, severity,\n"
            + "  code, message}]}; coordinators and pages are null for a rejected config, and a file that\n"
            + "  cannot be read is one finding, unreadable-file, with null line and column.",
        group: .offline,
        json: "Print one object: {file, valid, errors, warnings, coordinators, pages, findings}"
    ) { invocation, context throws(NotifyctlError) in
        let path = invocation.arguments[0]
        let bytes: [UInt8]
        do throws(NotifyctlError) {
            bytes = try context.files.read(path)
        } catch {
            guard invocation.wantsJSON else { throw error }
            context.print(FindingPrinter.unreadableJSON(file: path, message: error.message).prettyPrinted() + "\n")
            return .failure
        }
        let findings: [ConfigFinding]
        let graph: Graph?
        switch ConfigLoader.load(bytes, file: path) {
        case .success(let loaded):
            findings = loaded.warnings
            graph = loaded.graph
        case .failure(let error):
            findings = error.findings
            graph = nil
        }
        if invocation.wantsJSON {
            context.print(FindingPrinter.json(findings, file: path, graph: graph).prettyPrinted() + "\n")
        } else {
            context.print(FindingPrinter(style: context.style).render(findings, file: path, graph: graph))
        }
        return graph == nil ? .failure : .success
    }
}

/// Loads a config for the offline commands.
enum OfflineConfig {
    /// The loaded config at `path`; a rejected one is an error listing every finding.
    static func load(_ path: String, context: CommandContext) throws(NotifyctlError) -> LoadedConfig {
        let bytes = try context.files.read(path)
        switch ConfigLoader.load(bytes, file: path) {
        case .success(let loaded):
            return loaded
        case .failure(let error):
            let count = error.errors.count
            throw .failure(
                LocalName.configInvalid,
                "\(SafeText.clean(path)): the config has \(count) error\(count == 1 ? "" : "s")",
                parameters: [
                    "file": .string(path), "errors": .array(error.errors.map { .string($0.description) }),
                ],
                details: error.errors.map { SafeText.clean($0.description) },
                notes: ["'notifyctl validate \(path)' lists every finding"])
        }
    }
}
