import DeepLink
import JSON
import Testing

/// List parameters bound by a repeated query key, in the spirit of the routers app teams port from: Android
/// Navigation's array arguments, React Navigation's query params that arrive as arrays when a key repeats,
/// swift-url-routing's `Many` over query fields. The cases are written from their documented behaviour.
@Suite struct MatcherListTests {
    let matcher = Matcher(
        routes: makeRoutes([
            (
                "catalog.search", "search(tags: [String] = [], sizes: [Int] = [], sort: Sort = price)",
                "/search?tag={tags}&size={sizes}&sort={sort}"
            ),
            ("catalog.compare", "compare(ids: [Int])", "/compare?id={ids}"),
            ("catalog.pick", "pick(sorts: [Sort] = [price, rating])", "/pick?s={sorts}"),
        ]),
        policy: shopPolicy)

    func search(_ tags: [String] = [], sizes: [Int] = [], sort: String = "price") -> Page {
        page(
            "catalog.search",
            [
                ("tags", .list(tags.map(Value.string))), ("sizes", .list(sizes.map(Value.int))),
                ("sort", .enumCase(sort)),
            ])
    }

    @Test func everyValueOfARepeatedKeyIsBoundInTheLinksOrder() {
        #expect(matcher.match("/search?tag=b&tag=a&sort=rating&tag=b").page == search(["b", "a", "b"], sort: "rating"))
        #expect(matcher.match("/search?size=42&tag=x&size=-1").page == search(["x"], sizes: [42, -1]))
        #expect(matcher.match("/search?tag=a+b&tag=%26").page == search(["a b", "&"]))
        #expect(matcher.match("/search?tag=").page == search([""]), "an empty value is an item")
    }

    @Test func anAbsentKeyTakesTheDefaultAndWithoutOneIsNoMatch() {
        #expect(matcher.match("/search").page == search())
        #expect(
            matcher.match("/compare?id=1&id=2").page == page("catalog.compare", [("ids", .list([.int(1), .int(2)]))]))
        #expect(matcher.match("/compare").page == nil, "a list without a default needs at least one item")
        #expect(
            matcher.match("/pick").page
                == page("catalog.pick", [("sorts", .list([.enumCase("price"), .enumCase("rating")]))]))
    }

    @Test func oneItemThatDoesNotConvertIsNoMatch() {
        #expect(matcher.match("/search?size=1&size=x").page == nil)
        #expect(matcher.match("/pick?s=price&s=Price").page == nil)
        let trace = matcher.match("/compare?id=1&id=two", explain: true).trace
        #expect(trace.contains("/compare?id={ids}: query 'id': 'two' is not an Int"))
    }

    @Test func aListPrintsOneQueryItemPerValueInOrderAndTheDefaultNotAtAll() {
        #expect(matcher.link(for: search(["b", "a"], sizes: [3])) == "shop://search?tag=b&tag=a&size=3")
        #expect(matcher.link(for: search(["a b", "x&y"])) == "shop://search?tag=a%20b&tag=x%26y")
        #expect(matcher.link(for: search()) == "shop://search")
        let compare = page("catalog.compare", [("ids", .list([.int(2), .int(1)]))])
        #expect(matcher.link(for: compare) == "shop://compare?id=2&id=1")
        #expect(matcher.link(for: page("catalog.compare", [("ids", .list([]))])) == nil, "no item, no link")
        for page in [search(["z", "a", "z"], sizes: [0, -5], sort: "rating"), compare] {
            #expect(matcher.link(for: page).flatMap { matcher.match($0).page } == page)
        }
    }

    @Test func aListIsDescribedAndWrittenToJSONAsAnArray() {
        let page = search(["a", "b\""], sizes: [1])
        #expect(page.description == #"catalog.search(tags: ["a", "b\""], sizes: [1], sort: .price)"#)
        #expect(page.argumentsJSON == ["tags": ["a", "b\""], "sizes": [1], "sort": "price"])
        #expect(ParameterType.list(.int).convert(["1", "2"] as JSON) == .list([.int(1), .int(2)]))
        #expect(ParameterType.list(.int).convert(["1", "x"] as JSON) == nil)
    }

    @Test func declarationsTakeListsWithListDefaults() throws {
        let declaration = try CaseDeclaration.parse(
            "search(tags: [String] = [], ids: [Int] = [1, -2], sorts: [Sort] = [.price, rating])", types: shopTypes)
        #expect(
            declaration.parameters.map(\.type) == [
                .list(.string), .list(.int), .list(.enumeration(name: "Sort", cases: ["price", "rating"])),
            ])
        #expect(
            declaration.description
                == "search(tags: [String] = [], ids: [Int] = [1, -2], sorts: [Sort] = [.price, .rating])")
        #expect(throws: DeclarationError.self) { try CaseDeclaration.parse("a(x: [Int] = [1, x])", types: [:]) }
        #expect(throws: DeclarationError.self) { try CaseDeclaration.parse("a(x: [Int] = 1)", types: [:]) }
        #expect(throws: DeclarationError.self) { try CaseDeclaration.parse("a(x: [[Int]])", types: [:]) }
        #expect(throws: DeclarationError.self) { try CaseDeclaration.parse("a(x: [Int)", types: [:]) }
    }

    @Test func aListInThePathIsRefusedWithTheQueryToWriteInstead() throws {
        let declaration = try CaseDeclaration.parse("tagged(tags: [String])", types: [:])
        let problems = try LinkPattern.parse("/tagged/{tags}").check(against: declaration)
        #expect(problems.map(\.code) == [.typeMismatch])
        #expect(problems.first?.reason.contains("write '?tags={tags}'") == true)
        #expect(try LinkPattern.parse("/tagged?tag={tags}").check(against: declaration).isEmpty)
    }
}
