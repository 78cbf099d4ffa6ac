import DeepLink
import Testing

@Suite struct PatternParsingTests {
    @Test func segmentsParametersCatchAllAndQuery() throws {
        let pattern = try LinkPattern.parse("/catalog/{slug}/files/{path...}?page={page}&sort={sort}")
        #expect(
            pattern.segments == [.literal("catalog"), .parameter("slug"), .literal("files"), .catchAll("path")])
        #expect(pattern.query.map(\.key) == ["page", "sort"])
        #expect(pattern.pathParameterNames == ["slug", "path"])
        #expect(pattern.queryParameterNames == ["page", "sort"])
        #expect(pattern.parameterNames == ["slug", "path", "page", "sort"])
        #expect(pattern.catchAllName == "path")
        #expect(pattern.description == "/catalog/{slug}/files/{path...}?page={page}&sort={sort}")
    }

    @Test func rootPatternHasNoSegments() throws {
        #expect(try LinkPattern.parse("/").segments.isEmpty)
        #expect(try LinkPattern.parse("/?ref={ref}").query.map(\.name) == ["ref"])
    }

    @Test func trailingSlashIsIgnored() throws {
        #expect(try LinkPattern.parse("/catalog/").segments == [.literal("catalog")])
    }

    /// Android Navigation's deep-link patterns and URLNavigator's URLs may end in a bare `?`; it binds nothing.
    @Test func aTrailingQuestionMarkIsAnEmptyQuery() throws {
        let pattern = try LinkPattern.parse("/search/{q}?")
        #expect(pattern.segments == [.literal("search"), .parameter("q")])
        #expect(pattern.query.isEmpty)
        #expect(try LinkPattern.parse("/?").segments.isEmpty)
        #expect(try LinkPattern.parse("/catalog/?").segments == [.literal("catalog")])
    }

    /// Links drop empty segments, so a pattern's `//` could never match: it is refused, saying why.
    @Test func anEmptySegmentIsRefusedSayingWhy() {
        #expect {
            try LinkPattern.parse("/cart//checkout")
        } throws: { error in
            (error as? PatternError)?.reason.contains("'//cart' is '/cart'") == true
        }
    }

    @Test func percentEscapesInLiteralsAreDecoded() throws {
        #expect(try LinkPattern.parse("/caf%C3%A9/a%20b").segments == [.literal("café"), .literal("a b")])
        #expect(try LinkPattern.parse("/s?sort%20by={s}").query.first?.key == "sort by")
    }

    @Test func queryKeyMayDifferFromTheName() throws {
        let pattern = try LinkPattern.parse("/search?q={text}")
        #expect(pattern.query.first?.key == "q")
        #expect(pattern.query.first?.name == "text")
    }

    @Test(arguments: [
        ("offers/{id}", PatternError.Code.missingLeadingSlash, 0),
        ("", .missingLeadingSlash, 0),
        ("/a//b", .emptySegment, 3),
        ("/p/{a}-{b}{c}.html", .mixedSegment, 10),
        ("/v{rest...}", .mixedSegment, 3),
        ("/v{q?}", .mixedSegment, 3),
        ("/{a}-{q?}", .mixedSegment, 6),
        ("/{a}{b}", .mixedSegment, 4),
        ("/a}", .mixedSegment, 2),
        ("/{a}-{b", .mixedSegment, 5),
        ("/{a}-{a}", .duplicateName, 6),
        ("/{a}-{}", .invalidName, 6),
        ("/{}", .invalidName, 2),
        ("/{...}", .invalidName, 2),
        ("/{9x}", .invalidName, 2),
        ("/{id}/{id}", .duplicateName, 7),
        ("/{id}?id={id}", .duplicateName, 10),
        ("/{rest...}/x", .catchAllNotLast, 10),
        ("/a?x", .invalidQuery, 3),
        ("/a?={x}", .invalidQuery, 3),
        ("/a?x=1", .invalidQuery, 5),
        ("/a?x={a}b", .invalidQuery, 5),
        ("/a?x={a}&x={b}", .invalidQuery, 9),
        ("/a?{k}={v}", .invalidQuery, 3),
        ("/a?x={rest...}", .catchAllNotLast, 6),
        ("/a b", .invalidCharacter, 2),
        ("/a#top", .invalidCharacter, 2),
        ("/a\tb", .invalidCharacter, 2),
        ("/a%zz", .invalidCharacter, 1),
        ("/a%C3", .invalidCharacter, 1),
    ])
    func errorsNameTheOffset(text: String, code: PatternError.Code, offset: Int) {
        #expect {
            try LinkPattern.parse(text)
        } throws: { error in
            guard let error = error as? PatternError else { return false }
            return error.code == code && error.offset == offset && error.text == text && !error.reason.isEmpty
        }
    }

    /// Several parameters in one segment, each two separated by literal text (Android Navigation's
    /// `{slug}-{id}.html`).
    @Test func severalParametersInOneSegmentKeepTheirSeparators() throws {
        let pattern = try LinkPattern.parse("/p/{slug}-{id}.html?x={x}")
        #expect(
            pattern.segments == [
                .literal("p"), .part(prefix: "", names: ["slug", "id"], separators: ["-"], suffix: ".html"),
            ])
        #expect(pattern.parameterNames == ["slug", "id", "x"])
        #expect(pattern.description == "/p/{slug}-{id}.html?x={x}")
        let date = try LinkPattern.parse("/d%C3%A9{y}%2D{m}_{d}")
        #expect(date.segments == [.part(prefix: "dé", names: ["y", "m", "d"], separators: ["-", "_"], suffix: "")])
    }

    @Test func twoParametersWithNothingBetweenAreRefusedSayingWhy() {
        #expect {
            try LinkPattern.parse("/{a}{b}")
        } throws: { error in
            (error as? PatternError)?.reason.contains("'{a}' and the parameter after it need literal text between them")
                == true
        }
    }

    /// A parameter before a separator its values can hold makes the split ambiguous: a warning at its name.
    @Test func aSeparatorThatAnEarlierValueCanHoldIsReported() throws {
        let types: [String: [String]] = ["Kind": ["a-b", "c"]]
        let declaration = try CaseDeclaration.parse(
            "p(slug: String, id: Int, day: Int, k: Kind, u: UUID, n: Int)", types: types)
        let problems = try LinkPattern.parse("/p/{slug}-{id}.{day}/{k}-{n}/{u}").ambiguousSplits(against: declaration)
        #expect(problems.map(\.code) == [.ambiguousSplit, .ambiguousSplit])
        #expect(problems.map(\.offset) == [4, 22])
        #expect(problems.first?.reason.contains("a value of 'slug' (String) may hold '-'") == true)
        #expect(try LinkPattern.parse("/{id}-{slug}").ambiguousSplits(against: declaration).isEmpty)
        #expect(try LinkPattern.parse("/{u}_{id}").ambiguousSplits(against: declaration).isEmpty)
        #expect(try LinkPattern.parse("/{u}-{id}").ambiguousSplits(against: declaration).map(\.offset) == [2])
    }

    @Test func everyShopPatternFitsItsCase() throws {
        for row in shopRows {
            let declaration = try CaseDeclaration.parse(row.1, types: shopTypes)
            #expect(try LinkPattern.parse(row.2).check(against: declaration).isEmpty, "\(row.2)")
        }
    }

    @Test func boundNameThatIsNoLabelIsAnError() throws {
        let declaration = try CaseDeclaration.parse("offer(id: String)", types: [:])
        let problems = try LinkPattern.parse("/offers/{code}").check(against: declaration)
        #expect(problems.map(\.code) == [.unknownLabel, .unboundLabel])
        #expect(problems.first?.offset == 9)
        #expect(problems.first?.reason.contains("'{code}' is not a parameter of 'offer(id: String)'") == true)
        #expect(problems.last?.reason.contains("add '{id}' to the path or '?id={id}' to the query") == true)
    }

    @Test func labelWithoutDefaultMayBeBoundByTheQuery() throws {
        let declaration = try CaseDeclaration.parse("search(text: String, page: Int = 1)", types: [:])
        #expect(try LinkPattern.parse("/search?q={text}").check(against: declaration).isEmpty)
        #expect(try LinkPattern.parse("/search/{text}/{page}").check(against: declaration).isEmpty)
    }

    @Test func labelWithDefaultNeedNotBeBound() throws {
        let declaration = try CaseDeclaration.parse("category(slug: String, page: Int = 1)", types: [:])
        #expect(try LinkPattern.parse("/c/{slug}").check(against: declaration).isEmpty)
    }

    @Test func catchAllMustBindAString() throws {
        let declaration = try CaseDeclaration.parse("file(id: Int)", types: [:])
        let problems = try LinkPattern.parse("/files/{id...}").check(against: declaration)
        #expect(problems.map(\.code) == [.typeMismatch])
    }

    @Test func caseWithoutParametersRejectsAnyBinding() throws {
        let declaration = try CaseDeclaration.parse("home", types: [:])
        let problems = try LinkPattern.parse("/home?ref={ref}").check(against: declaration)
        #expect(problems.map(\.code) == [.unknownLabel])
        #expect(problems.first?.reason.contains("it has no parameters") == true)
    }
}
