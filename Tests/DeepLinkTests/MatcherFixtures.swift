import DeepLink

/// Builds routes from `(page id, case declaration, pattern)` rows; the rows are test data and must parse.
func makeRoutes(_ rows: [(String, String, String)], types: [String: [String]] = shopTypes) -> [Route] {
    rows.map { row in
        let declaration = try! CaseDeclaration.parse(row.1, types: types)
        let pattern = try! LinkPattern.parse(row.2)
        return Route(page: PageID(row.0)!, declaration: declaration, pattern: pattern)
    }
}

let shopTypes: [String: [String]] = ["Sort": ["price", "rating"]]

/// The example app of the design document, one row per pattern.
let shopRows: [(String, String, String)] = [
    ("catalog.home", "home", "/catalog"),
    ("catalog.product", "product(id: String)", "/products/{id}"),
    (
        "catalog.category", "category(slug: String, page: Int = 1, sort: Sort = price)",
        "/catalog/{slug}?page={page}&sort={sort}"
    ),
    ("cart.cart", "cart", "/cart"),
    ("cart.checkout", "checkout", "/cart/checkout"),
    ("cart.offer", "offer(id: String)", "/offers/{id}"),
    ("cart.offer", "offer(id: String)", "/promo/{id}"),
    ("account.profile", "profile", "/account"),
    ("account.order", "order(id: Int)", "/account/orders/{id}"),
    ("account.orders", "orders", "/account/orders"),
    ("login.login", "login", "/login"),
    ("payment.pay", "pay(order: Int)", "/pay/{order}"),
    ("help.article", "article(path: String)", "/help/{path...}"),
    ("tickets.ticket", "ticket(id: UUID, open: Bool = false)", "/tickets/{id}?open={open}"),
]

let shopPolicy = LinkPolicy(schemes: ["shop"], hosts: ["shop.example.com", "*.shop.example.com"])

let shopMatcher = Matcher(routes: makeRoutes(shopRows), policy: shopPolicy)

func page(_ id: String, _ arguments: [(String, Value)] = []) -> Page {
    Page(id: PageID(id)!, arguments: arguments.map { Page.Argument(label: $0.0, value: $0.1) })
}
