import DeepLink
import Testing

/// `Double` parameters and Booleans spelled as query strings spell them, in the spirit of the routers app teams
/// port from: URLNavigator's `<float:…>` placeholders, Android Navigation's `app:argType="float"` and
/// `"boolean"` deep-link arguments, React Navigation's `parse: { lat: Number }`, swift-url-routing's
/// `Double.parser()`. The cases are written from their documented behaviour, not copied.
@Suite struct MatcherNumberTests {
    let matcher = Matcher(
        routes: makeRoutes([
            ("map.at", "at(lat: Double, lon: Double, zoom: Double = 1)", "/map/{lat}/{lon}?zoom={zoom}"),
            ("shop.item", "item(id: Int)", "/v/{id}"),
            ("shop.price", "price(amount: Double)", "/v/{amount}"),
            ("shop.list", "list(compact: Bool = false, sale: Bool = false)", "/list?compact={compact}&sale={sale}"),
        ]),
        policy: shopPolicy)

    func at(_ lat: Double, _ lon: Double, zoom: Double = 1) -> Page {
        page("map.at", [("lat", .double(lat)), ("lon", .double(lon)), ("zoom", .double(zoom))])
    }

    @Test(arguments: [
        ("/map/52.52/13.405", 52.52, 13.405), ("/map/-33.9/18", -33.9, 18), ("/map/+1.5/-0.25", 1.5, -0.25),
        ("/map/1e3/2E-2", 1000, 0.02), ("/map/007.50/0", 7.5, 0),
    ])
    func decimalNumbersOpenDoubleParameters(link: String, lat: Double, lon: Double) {
        #expect(matcher.match(link).page == at(lat, lon))
    }

    @Test(arguments: [".5", "5.", "nan", "inf", "-inf", "0x1p3", "1,5", "1e", "1e999", "%2B", "1_000"])
    func otherSpellingsOfNumbersAreNoMatch(text: String) {
        #expect(matcher.match("/map/\(text)/1").page == nil)
    }

    @Test func aQueryDoubleTakesItsDefaultWhenAbsentAndIsPrintedOnlyWhenNotTheDefault() {
        #expect(matcher.match("/map/1/2?zoom=2.5").page == at(1, 2, zoom: 2.5))
        #expect(matcher.match("/map/1/2?zoom=1.0").page == at(1, 2))
        #expect(matcher.match("/map/1/2?zoom=x").page == nil, "a present value that does not convert is no match")
        #expect(matcher.link(for: at(1, 2, zoom: 2.5)) == "shop://map/1/2?zoom=2.5")
        #expect(matcher.link(for: at(52.52, -0.5)) == "shop://map/52.52/-0.5")
    }

    @Test func aDoubleIsPrintedInItsShortestFormAndReadsBackAsTheSameNumber() {
        for value in [0.1, 1.0 / 3, -2, 1e16, 2.5e-8, 123_456.789, -0.0] {
            let page = at(value, value, zoom: value)
            let link = matcher.link(for: page)
            #expect(link != nil, "\(value)")
            #expect(link.flatMap { matcher.match($0).page } == page, "\(value) prints as \(link ?? "nothing")")
        }
        #expect(matcher.link(for: at(1e16, 0)) == "shop://map/1e+16/0")
        #expect(matcher.link(for: at(0, 0, zoom: 1e16)) == "shop://map/0/0?zoom=1e%2B16", "'+' is a space in a query")
        #expect(at(1.5, 2).description == "map.at(lat: 1.5, lon: 2.0, zoom: 1.0)")
    }

    /// Typed parameters are tried in declaration order, so an `Int` declared first keeps whole numbers.
    @Test func anIntDeclaredBeforeADoubleKeepsWholeNumbers() {
        #expect(matcher.match("/v/3").page == page("shop.item", [("id", .int(3))]))
        #expect(matcher.match("/v/3.5").page == page("shop.price", [("amount", .double(3.5))]))
        #expect(
            matcher.match("/v/9223372036854775808").page
                == page("shop.price", [("amount", .double(9.2233720368547758e18))]))
        #expect(matcher.match("/v/three").page == nil)
    }

    @Test func aDoubleDeclaredBeforeAnIntShadowsIt() {
        let found = Matcher(
            routes: makeRoutes([
                ("shop.price", "price(amount: Double)", "/v/{amount}"),
                ("shop.item", "item(id: Int)", "/v/{id}"),
            ]),
            policy: shopPolicy
        ).diagnostics()
        #expect(found.map(\.kind) == [.shadowed])
        #expect(
            found.first?.message
                == "pattern '/v/{id}' of shop.item never matches: '/v/{amount}' of shop.price takes every link it "
                + "matches, because every Int is also a Double, which is tried first; make the patterns differ by "
                + "a literal segment")
    }

    /// Query strings spell Booleans `1` and `0` as often as `true` and `false` (HTML forms, PHP, Rails).
    @Test func booleansAreTrueFalseOneOrZeroAndPrintAsTrueOrFalse() {
        let list = { (compact: Bool, sale: Bool) in
            page("shop.list", [("compact", .bool(compact)), ("sale", .bool(sale))])
        }
        #expect(matcher.match("/list?compact=1&sale=0").page == list(true, false))
        #expect(matcher.match("/list?compact=true&sale=1").page == list(true, true))
        #expect(matcher.match("/list?compact=0").page == list(false, false))
        for text in ["TRUE", "True", "01", "2", "yes", "on", ""] {
            #expect(matcher.match("/list?compact=\(text)").page == nil, "\(text)")
        }
        #expect(matcher.link(for: list(true, false)) == "shop://list?compact=true")
        #expect(ParameterType.bool.convert(Substring("1")) == .bool(true))
        #expect(ParameterType.bool.convert(Substring("0")) == .bool(false))
    }

    @Test func explainSaysWhatADoubleAndABoolAre() {
        let trace = matcher.match("/map/north/1", explain: true).trace
        let reason = "'north' is not a Double (digits, an optional fraction and exponent)"
        #expect(trace.contains("/map/{lat}/{lon}?zoom={zoom}: " + reason))
        let list = matcher.match("/list?sale=yes", explain: true).trace
        #expect(
            list.contains(
                "/list?compact={compact}&sale={sale}: query 'sale': 'yes' is not a Bool (true, false, 1 or 0)"))
    }

    @Test func declarationsTakeDoubleWithANumericDefault() throws {
        let declaration = try CaseDeclaration.parse("at(lat: Double, zoom: Double = 1.5, min: Double = -2)", types: [:])
        #expect(declaration.parameters.map(\.type) == [.double, .double, .double])
        #expect(declaration.parameters[1].defaultValue == .double(1.5))
        #expect(declaration.description == "at(lat: Double, zoom: Double = 1.5, min: Double = -2.0)")
        #expect(throws: DeclarationError.self) { try CaseDeclaration.parse("at(x: Double = .5)", types: [:]) }
        #expect(throws: DeclarationError.self) { try CaseDeclaration.parse("at(x: Double = \"1\")", types: [:]) }
        #expect(throws: DeclarationError.self) { try CaseDeclaration.parse("at(x: Int = 1.5)", types: [:]) }
    }
}
