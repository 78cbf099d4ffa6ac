import CoordinatorGraph
import Foundation
import JSON

/// `codegen swift CONFIG`: the app's `Page` enums and `AppLink` from the graph.
extension Command {
    /// `codegen swift CONFIG [-o DIR] [--layout L] [--public]`.
    public static let codegen = Command(
        name: "codegen", summary: "Generate Swift Page enums and AppLink (link parsing and printing) for the app",
        arguments: [
            ArgumentSpec("LANGUAGE", help: "The language to generate: swift"),
            ArgumentSpec("CONFIG", help: "The config file (YAML or JSON), e.g. config/shop.yaml"),
        ],
        options: [.codegenOutput, .codegenLayout, .codegenPublic],
        discussion: """
            Writes one Swift file that imports only Foundation: an enum per `types:` entry, a `Page` enum per
            coordinator with the config's cases and associated values, and `AppLink`, whose `init?(url:)` matches
            a link exactly as notifyd does and whose `url` prints a page's canonical link.
            Without -o (--output) the file goes to standard output; with it, to DIR/\(SwiftGenerator.fileName), left
            untouched when already up to date (with --json, a line of JSON says which). See docs/codegen.md.
            """,
        group: .offline, synopsis: "codegen swift CONFIG [-o DIR]",
        json: "With -o, print {path, written}; without it the Swift source is printed either way"
    ) { invocation, context throws(NotifyctlError) in
        let language = invocation.arguments[0]
        guard language == "swift" else {
            throw .usage("'codegen' generates 'swift', not '\(language)'", command: "codegen")
        }
        let path = invocation.arguments[1]
        let loaded = try OfflineConfig.load(path, context: context)
        for warning in loaded.warnings { context.warn(warning.description) }
        let layout = invocation.value(.codegenLayout).flatMap(SwiftGenerator.Layout.init(rawValue:)) ?? .namespaces
        let options = SwiftGenerator.Options(
            layout: layout, isPublic: invocation.isSet(.codegenPublic),
            sourceName: URL(fileURLWithPath: path).lastPathComponent)
        let source: String
        do throws(CodegenError) {
            source = try SwiftGenerator(graph: loaded.graph, options: options).generate()
        } catch {
            throw .failure(
                LocalName.codegenFailed, "\(SafeText.clean(path)): cannot generate Swift: \(error.message)",
                parameters: [
                    "file": .string(path), "code": .string(error.code.rawValue), "reason": .string(error.message),
                ],
                notes: [error.code.rawValue])
        }
        guard let directory = invocation.value(.codegenOutput) else {
            context.print(source)
            return .success
        }
        let written = try GeneratedFile.write(source, to: directory, name: SwiftGenerator.fileName)
        if invocation.wantsJSON {
            let reply: JSONObject = ["path": .string(written.path), "written": .bool(written.changed)]
            context.print(JSON.object(reply).serialized + "\n")
        } else {
            context.print("\(written.path): \(written.changed ? "written" : "up to date")\n")
        }
        return .success
    }
}

extension OptionSpec {
    /// `-o DIR`, `--output DIR` of `codegen`.
    public static let codegenOutput = OptionSpec(
        "output", short: "o", value: .text(placeholder: "DIR"),
        help: "Write \(SwiftGenerator.fileName) into DIR (created if missing) instead of standard output")
    /// `--layout L` of `codegen`.
    public static let codegenLayout = OptionSpec(
        "layout", value: .choice(placeholder: "L", choices: SwiftGenerator.Layout.allCases.map(\.rawValue)),
        help: "namespaces: enum CartCoordinatorPages { enum Page }; extensions: extension CartCoordinator { enum Page }"
    )
    /// `--public` of `codegen`.
    public static let codegenPublic = OptionSpec("public", help: "Declare the generated types public")
}

/// Writes generated text to a file, leaving an identical file alone so that builds do not redo work.
enum GeneratedFile {
    /// Writes `text` to `directory/name`; returns the path, as given (relative when `directory` is), and whether
    /// the file changed.
    static func write(
        _ text: String, to directory: String, name: String
    ) throws(NotifyctlError) -> (
        path: String, changed: Bool
    ) {
        let url = URL(fileURLWithPath: directory, isDirectory: true).appendingPathComponent(name)
        let shown = directory.hasSuffix("/") ? directory + name : directory + "/" + name
        let data = Data(text.utf8)
        if FileManager.default.contents(atPath: url.path) == data { return (shown, false) }
        do {
            try FileManager.default.createDirectory(
                at: URL(fileURLWithPath: directory, isDirectory: true), withIntermediateDirectories: true)
            try data.write(to: url, options: .atomic)
        } catch {
            throw .failure(
                LocalName.cannotWrite, "cannot write '\(SafeText.clean(url.path))': \(error.localizedDescription)",
                parameters: ["path": .string(url.path), "reason": .string(error.localizedDescription)],
                notes: ["check that '\(SafeText.clean(directory))' is a writable directory"])
        }
        return (shown, true)
    }
}
