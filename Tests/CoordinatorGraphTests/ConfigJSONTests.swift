import CoordinatorGraph
import Testing

@Suite struct ConfigJSONTests {
    static let valid = """
        {
          "version": 1,
          "app": {"name": "Mini", "schemes": ["mini"]},
          "coordinators": {
            "app": {"kind": "app", "children": ["main"], "root": "main"},
            "main": {"kind": "stack", "pages": {"home": "/home", "item(id: Int)": ["/items/{id}"]}}
          }
        }
        """

    @Test func validJSONLoads() throws {
        let graph = try #require(ConfigTest.graph(Self.valid, file: "mini.json"))
        #expect(graph.coordinator("main")?.pages.map(\.declaration.description) == ["home", "item(id: Int)"])
    }

    @Test(arguments: [
        ("{\"version\": 1,}", "1:15"),
        ("{\"version\" 1}", "1:12"),
        ("{\"version\": 01}", "1:13"),  // at the leading zero
        ("{\"version\": tru}", "1:13"),
        ("{\n  \"a\": \"x\ny\"}", "2:10"),
        ("{\"a\": \"\\q\"}", "1:9"),
        ("{\"a\": \"\\uD800x\"}", "1:14"),
        ("{\"a\": 1} {}", "1:10"),
        ("[1, 2", "1:6"),
        ("{\"é\": \"ü\" x}", "1:11"),
    ])
    func syntaxErrorsNameTheExactPlace(text: String, place: String) throws {
        let findings = ConfigTest.findings(text, file: "x.json")
        #expect(findings.count == 1)
        let f = try #require(findings.first)
        #expect(f.code == "json-syntax")
        #expect("\(f.location.line):\(f.location.column)" == place, "\(f)")
    }

    @Test func duplicateKeysAreErrors() {
        let json = """
            {"version": 1, "app": {"name": "A", "schemes": ["a"], "name": "B"},
             "coordinators": {"app": {"kind": "app", "children": ["main"], "root": "main"},
                              "main": {"kind": "stack", "pages": {"home": "/home"}}}}
            """
        #expect(ConfigTest.summary(json, file: "x.json") == ["1:55 error duplicate-key"])
    }

    @Test func stringsAreNeverNumbersAndNumbersAreNeverStrings() {
        let json = """
            {"version": "1", "app": {"name": 7, "schemes": ["a"]},
             "links": {"pendingExpiry": 1.5},
             "coordinators": {"app": {"kind": "app", "children": ["main"], "root": "main"},
                              "main": {"kind": "stack", "pages": {"home": "/home"}}}}
            """
        #expect(
            ConfigTest.summary(json, file: "x.json") == [
                "1:13 error wrong-type", "1:34 error wrong-type", "2:29 error wrong-type",
            ])
    }

    @Test func syntaxErrorsSayWhatWasWrongAndWhatWasFound() throws {
        let cases = [
            ("{\"version\": 01}", "1:13: invalid JSON: leading zeros are not allowed"),
            ("{\"version\" 1}", "1:12: invalid JSON: expected ':' after a key, found '1'"),
            ("[1, 2", "1:6: invalid JSON: expected ',' or ']' in an array, found the end of the text"),
            ("{\"a\": tru}", "1:7: invalid JSON: expected 'true'"),
            ("{\"a\": 1} {}", "1:10: invalid JSON: expected the end of the document, found '{'"),
        ]
        for (text, expected) in cases {
            let f = try #require(ConfigTest.findings(text, file: "x.json").first)
            #expect("\(f.location.line):\(f.location.column): \(f.message)" == expected)
        }
    }

    @Test func escapesAndSurrogatePairsDecode() throws {
        let json = """
            {"version": 1, "app": {"name": "Sh\\u00f6p \\ud83d\\uded2 \\"1\\"\\n", "schemes": ["a"]},
             "coordinators": {"app": {"kind": "app", "children": ["main"], "root": "main"},
                              "main": {"kind": "stack", "pages": {"home": "\\/home"}}}}
            """
        let graph = try #require(ConfigTest.graph(json, file: "x.json"))
        #expect(graph.app.name == "Shöp 🛒 \"1\"\n")
        #expect(graph.coordinator("main")?.pages.first?.patterns.first?.text == "/home")
    }

    @Test func deepNestingIsRejected() {
        let json = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        #expect(ConfigTest.summary(json, file: "x.json") == ["1:257 error nesting-too-deep"])
    }
}
