import DeepLink
import Foundation
import Testing

@Suite struct DeclarationParsingTests {
    @Test func bareCaseHasNoParameters() throws {
        let declaration = try CaseDeclaration.parse("home", types: [:])
        #expect(declaration.name == "home")
        #expect(declaration.parameters.isEmpty)
        #expect(declaration.description == "home")
    }

    @Test func parametersKeepOrderTypesAndDefaults() throws {
        let declaration = try CaseDeclaration.parse(
            "category(slug: String, page: Int = 1, sort: Sort = price)", types: shopTypes)
        #expect(declaration.name == "category")
        #expect(
            declaration.parameters == [
                Parameter(label: "slug", type: .string),
                Parameter(label: "page", type: .int, defaultValue: .int(1)),
                Parameter(
                    label: "sort", type: .enumeration(name: "Sort", cases: ["price", "rating"]),
                    defaultValue: .enumCase("price")),
            ])
        #expect(declaration.description == "category(slug: String, page: Int = 1, sort: Sort = .price)")
    }

    @Test(arguments: [
        ("a(x: Int = -42)", Value.int(-42)),
        ("a(x: Int = 0)", .int(0)),
        ("a(x: String = \"all\")", .string("all")),
        ("a(x: String = \"say \\\"hi\\\"\\n\")", .string("say \"hi\"\n")),
        ("a(x: String = \"\\u{2615}\")", .string("☕")),
        ("a(x: String = \"\")", .string("")),
        ("a(x: Bool = true)", .bool(true)),
        ("a(x: Bool = false)", .bool(false)),
        ("a(x: Sort = rating)", .enumCase("rating")),
        ("a(x: Sort = .rating)", .enumCase("rating")),
        (
            "a(x: UUID = \"e621e1f8-c36c-495a-93fc-0c247a3e6e5f\")",
            .uuid(PageUUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)
        ),
    ])
    func defaultsOfEveryType(text: String, expected: Value) throws {
        let declaration = try CaseDeclaration.parse(text, types: shopTypes)
        #expect(declaration.parameters.first?.defaultValue == expected)
    }

    @Test func spacesAroundPunctuationAreAllowed() throws {
        let declaration = try CaseDeclaration.parse("  offer ( id :String ,page:Int=2 )  ", types: [:])
        #expect(declaration.description == "offer(id: String, page: Int = 2)")
    }

    @Test func descriptionParsesBackToTheSameDeclaration() throws {
        for text in [
            "home", "offer(id: String)", "category(slug: String, page: Int = 1, sort: Sort = .price)",
            "a(x: String = \"tab\\tand \\\"quote\\\"\")", "t(id: UUID, open: Bool = false)",
        ] {
            let declaration = try CaseDeclaration.parse(text, types: shopTypes)
            #expect(try CaseDeclaration.parse(declaration.description, types: shopTypes) == declaration)
        }
    }

    @Test(arguments: [
        ("", DeclarationError.Code.invalidIdentifier, 0, "expected case name"),
        ("9lives", .invalidIdentifier, 0, "not a valid case name"),
        ("default", .invalidIdentifier, 0, "Swift keyword"),
        ("home()", .unexpectedText, 5, "without '()'"),
        ("home extra", .unexpectedText, 5, "end of the declaration"),
        ("offer(id String)", .unexpectedText, 9, "expected ':' after 'id'"),
        ("offer(_: String)", .invalidIdentifier, 6, "needs a label"),
        ("offer(String)", .unexpectedText, 6, "parameters need labels: write 'offer(id: String)'"),
        ("a(id: Int, Sort, Bool)", .unexpectedText, 11, "write 'a(id: Int, sort: Sort, flag: Bool)'"),
        ("a(String, UUID)", .unexpectedText, 2, "write 'a(id: String, id2: UUID)'"),
        ("offer(id: Strin)", .unknownType, 10, "unknown type 'Strin'"),
        ("offer(id: String, id: Int)", .duplicateLabel, 18, "declared twice"),
        ("offer(id: String", .unexpectedText, 16, "expected ',' or ')' but the declaration ends"),
        ("offer(id: String,)", .invalidIdentifier, 17, "expected parameter label"),
        ("a(page: Int = abc)", .invalidDefault, 14, "expected an integer"),
        ("a(page: Int = 99999999999999999999)", .invalidDefault, 14, "expected an integer"),
        ("a(page: Int = \"1\")", .invalidDefault, 14, "expected an integer"),
        ("a(sort: Sort = cheapest)", .invalidDefault, 15, "expected a case of Sort: .price, .rating"),
        ("a(on: Bool = yes)", .invalidDefault, 13, "expected true or false"),
        ("a(id: UUID = \"nope\")", .invalidDefault, 13, "quoted UUID"),
        ("a(s: String = \"open)", .invalidDefault, 14, "unterminated string"),
        ("a(s: String = \"\\q\")", .invalidDefault, 15, "unknown escape"),
        ("a(s: String = x)", .invalidDefault, 14, "quoted string"),
    ])
    func errorsNameTheOffsetAndWhatWasExpected(
        text: String, code: DeclarationError.Code, offset: Int, reason: String
    ) {
        #expect {
            try CaseDeclaration.parse(text, types: shopTypes)
        } throws: { error in
            guard let error = error as? DeclarationError else { return false }
            return error.code == code && error.offset == offset && error.reason.contains(reason) && error.text == text
        }
    }

    @Test func unknownTypeErrorListsTheKnownTypes() {
        #expect(throws: DeclarationError.self) { try CaseDeclaration.parse("a(x: Colour)", types: shopTypes) }
        do {
            _ = try CaseDeclaration.parse("a(x: Colour)", types: shopTypes)
        } catch {
            #expect(error.reason.contains("String, Int, Double, Bool, UUID, Sort"))
            #expect(error.description.contains("offset 5"))
        }
    }
}
