import Foundation
import JSON
import NotifyctlCore
import Testing

/// `validate`: warnings alone, errors and warnings together, and its JSON, whose shape is the same for a valid
/// config, a rejected one and a file that cannot be read.
@Suite struct ValidateCommandTests {
    /// Loads, with a shadowed pattern and a page nothing leads to.
    static let warningsOnly = """
        version: 1
        app: {name: Shop, schemes: [shop], fallback: main.home}
        coordinators:
          app: {kind: app, children: [main], root: main}
          main:
            kind: stack
            pages:
              home: /home
              item(id: String, sort: String = "a"): /items/{id}?sort={sort}
              plain(id: String): /items/{id}
              draft: []
        """

    /// The same with two pattern errors and an unreachable coordinator.
    static let errorsAndWarnings =
        warningsOnly + """

                  order(id: Int): /orders/{name}
              extra:
                kind: modal
                pages: {x: /x}
                provides: session
            """

    /// The keys of every `validate --json` object, in order.
    static let keys = ["file", "valid", "errors", "warnings", "coordinators", "pages", "findings"]

    @Test func warningsAloneArePrintedAndExitZero() {
        let run = Fixtures.run(["validate", "warn.yaml"], files: ["warn.yaml": Self.warningsOnly])
        #expect(run.status == .success)
        #expect(run.errors.isEmpty)
        #expect(run.output.hasPrefix("warn.yaml:10:26: warning: pattern '/items/{id}' of main.plain"))
        #expect(run.output.hasSuffix("warn.yaml: valid: 2 coordinators, 4 pages, 2 warnings\n"))
        Fixtures.expectGolden(run.output, "validate-warnings.txt")
    }

    @Test func warningsAloneInJSONAreAValidConfigWithItsSize() throws {
        let run = Fixtures.run(["validate", "--json", "warn.yaml"], files: ["warn.yaml": Self.warningsOnly])
        #expect(run.status == .success)
        let json = try JSON.parse(run.output)
        #expect(json.objectValue?.keys == Self.keys)
        #expect(json["valid"] == true)
        #expect(json["errors"] == 0 && json["warnings"] == 2)
        #expect(json["coordinators"] == 2 && json["pages"] == 4)
        let codes = try #require(json["findings"]?.arrayValue).map { $0["code"]?.stringValue }
        #expect(codes == ["shadowed-pattern", "unreachable-page"])
    }

    @Test func errorsAndWarningsInJSONMatchTheGolden() throws {
        let run = Fixtures.run(["validate", "both.yaml", "--json"], files: ["both.yaml": Self.errorsAndWarnings])
        #expect(run.status == .failure)
        #expect(run.errors.isEmpty)
        let json = try JSON.parse(run.output)
        #expect(json.objectValue?.keys == Self.keys)
        #expect(json["valid"] == false)
        #expect(json["errors"] == 3 && json["warnings"] == 2)
        #expect(json["coordinators"]?.isNull == true && json["pages"]?.isNull == true)
        Fixtures.expectGolden(run.output, "validate-findings.json")
    }

    @Test func errorsAndWarningsInTextExitOneWithBothCounted() {
        let run = Fixtures.run(["validate", "both.yaml"], files: ["both.yaml": Self.errorsAndWarnings])
        #expect(run.status == .failure)
        #expect(run.output.contains(": warning: ") && run.output.contains(": error: "))
        #expect(run.output.hasSuffix("both.yaml: 3 errors, 2 warnings\n"))
    }

    @Test func aFileThatCannotBeReadIsOneFindingInJSON() throws {
        let (path, message) = ("nope.yaml", "cannot read 'nope.yaml': no such file")
        let run = Fixtures.run(["validate", path, "--json"])
        #expect(run.status == .failure)
        #expect(run.errors.isEmpty, "the JSON on standard output says it all")
        let json = try JSON.parse(run.output)
        #expect(json.objectValue?.keys == Self.keys)
        #expect(json["file"]?.stringValue == path)
        #expect(json["valid"] == false && json["errors"] == 1 && json["warnings"] == 0)
        #expect(json["coordinators"]?.isNull == true && json["pages"]?.isNull == true)
        let findings = try #require(json["findings"]?.arrayValue)
        try #require(findings.count == 1)
        let finding = try #require(findings[0].objectValue)
        #expect(finding.keys == ["file", "line", "column", "severity", "code", "message"])
        #expect(finding["line"]?.isNull == true && finding["column"]?.isNull == true)
        #expect(finding["severity"] == "error" && finding["code"] == "unreadable-file")
        #expect(finding["message"]?.stringValue == message)
    }

    @Test func aFileThatCannotBeReadIsStillAnErrorMessageInText() {
        let run = Fixtures.run(["validate", "nope.yaml"])
        #expect(run.status == .failure)
        #expect(run.output.isEmpty)
        #expect(run.errors == "notifyctl: error: cannot read 'nope.yaml': no such file\n")
    }
}
