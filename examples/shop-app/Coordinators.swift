// The shop app's coordinators, as plain classes that print what they do instead of moving screens. A real app's are
// the same shape: the stacks hold view controllers, the tabs a tab bar, the modals are presented.
import Foundation

/// Writes `text` and a newline to standard output at once, so that a pipe shows each step as it is taken.
func printLine(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

/// Prints what a coordinator does, indented under the decision it follows.
func say(_ coordinator: NotifydCoordinator, _ what: String) {
    printLine("  \(coordinator): \(what)")
}

/// What a stack does with a page of a decision's step.
enum StackAction {
    case setRoot, push, popTo, display
}

/// A coordinator with a stack of pages (a navigation controller): it names the screen of each of its pages, and the
/// compiler checks that it names every page the config declares.
@MainActor protocol PageStack: AnyObject {
    associatedtype Page: Equatable
    /// The coordinator, as decisions name it.
    var name: NotifydCoordinator { get }
    /// The pages on the stack, bottom first.
    var stack: [Page] { get set }
    /// The screen that shows `page`.
    func screen(for page: Page) -> String
}

extension PageStack {
    /// Performs a step's action on the stack.
    func perform(_ action: StackAction, _ page: Page) {
        switch action {
        case .setRoot:
            stack = [page]
            say(name, "shows \(screen(for: page)), alone on its stack")
        case .push:
            stack.append(page)
            say(name, "pushes \(screen(for: page))")
        case .popTo:
            if let index = stack.lastIndex(of: page) { stack.removeSubrange((index + 1)...) }
            say(name, "goes back to \(screen(for: page))")
        case .display:
            if stack.last == page {
                say(name, "already shows \(screen(for: page))")
            } else {
                stack.append(page)
                say(name, "shows \(screen(for: page))")
            }
        }
    }
}

final class CatalogCoordinator: PageStack {
    let name = NotifydCoordinator.catalog
    var stack: [CatalogCoordinatorPages.Page] = []

    func screen(for page: CatalogCoordinatorPages.Page) -> String {
        switch page {
        case .home: return "the catalog"
        case .product(let id): return "product \(id)"
        case .category(let slug, let page, let sort): return "category '\(slug)', page \(page), by \(sort)"
        case .article(let path): return "the article \(path)"
        }
    }
}

final class DealsCoordinator: PageStack {
    let name = NotifydCoordinator.deals
    var stack: [DealsCoordinatorPages.Page] = []

    func screen(for page: DealsCoordinatorPages.Page) -> String {
        switch page {
        case .deals: return "the members' deals"
        case .deal(let id): return "deal \(id)"
        }
    }
}

final class CartCoordinator: PageStack {
    let name = NotifydCoordinator.cart
    var stack: [CartCoordinatorPages.Page] = []

    func screen(for page: CartCoordinatorPages.Page) -> String {
        switch page {
        case .cart: return "the cart"
        case .checkout: return "the checkout"
        case .payment: return "the payment form"
        case .offer(let id): return "the offer \(id)"
        }
    }
}

final class AccountCoordinator: PageStack {
    let name = NotifydCoordinator.account
    var stack: [AccountCoordinatorPages.Page] = []

    func screen(for page: AccountCoordinatorPages.Page) -> String {
        switch page {
        case .profile: return "the profile"
        case .orders(let archived): return archived ? "the archived orders" : "the orders"
        case .order(let id): return "order \(id)"
        }
    }
}

final class LoginCoordinator: PageStack {
    let name = NotifydCoordinator.login
    var stack: [LoginCoordinatorPages.Page] = []

    func screen(for page: LoginCoordinatorPages.Page) -> String {
        switch page {
        case .login: return "the login form"
        case .register: return "the sign-up form"
        }
    }
}

final class MembershipCoordinator: PageStack {
    let name = NotifydCoordinator.membership
    var stack: [MembershipCoordinatorPages.Page] = []

    func screen(for page: MembershipCoordinatorPages.Page) -> String {
        switch page {
        case .join: return "the membership paywall"
        }
    }
}

final class PaymentCoordinator: PageStack {
    let name = NotifydCoordinator.payment
    var stack: [PaymentCoordinatorPages.Page] = []

    func screen(for page: PaymentCoordinatorPages.Page) -> String {
        switch page {
        case .pay(let order): return "the payment of order \(order)"
        }
    }
}

final class OnboardingCoordinator: PageStack {
    let name = NotifydCoordinator.onboarding
    var stack: [OnboardingCoordinatorPages.Page] = []

    func screen(for page: OnboardingCoordinatorPages.Page) -> String {
        switch page {
        case .welcome: return "the welcome screen"
        case .notifications: return "the notification settings"
        case .done: return "the end of the onboarding"
        }
    }
}

/// The root of the app: it starts, selects, presents and dismisses coordinators, and hands each page to the stack
/// that owns it. Implementing `NotifydNavigator` is what lets it follow notifyd's decisions.
final class AppCoordinator: NotifydNavigator {
    let catalog = CatalogCoordinator()
    let deals = DealsCoordinator()
    let cart = CartCoordinator()
    let account = AccountCoordinator()
    let login = LoginCoordinator()
    let membership = MembershipCoordinator()
    let payment = PaymentCoordinator()
    let onboarding = OnboardingCoordinator()
    /// The presented coordinators, bottom first.
    private(set) var presented: [NotifydCoordinator] = []

    func start(_ coordinator: NotifydCoordinator, in parent: NotifydCoordinator) {
        say(parent, "starts \(coordinator)")
    }

    func activate(_ coordinator: NotifydCoordinator) {
        say(coordinator, "comes to the front")
    }

    func selectTab(_ tab: NotifydCoordinator, in coordinator: NotifydCoordinator) {
        say(coordinator, "selects the tab \(tab)")
    }

    func present(_ coordinator: NotifydCoordinator, over parent: NotifydCoordinator) {
        presented.append(coordinator)
        say(parent, "presents \(coordinator)")
    }

    func dismiss(_ coordinator: NotifydCoordinator) {
        presented.removeAll { $0 == coordinator }
        say(coordinator, "is dismissed")
    }

    func popTo(_ page: AppLink, in coordinator: NotifydCoordinator) { perform(.popTo, page) }
    func push(_ page: AppLink, in coordinator: NotifydCoordinator) { perform(.push, page) }
    func setRoot(_ page: AppLink, in coordinator: NotifydCoordinator) { perform(.setRoot, page) }
    func display(_ page: AppLink, in coordinator: NotifydCoordinator) { perform(.display, page) }

    /// Hands `link` to the coordinator that owns its page; the compiler lists the coordinators a config adds.
    private func perform(_ action: StackAction, _ link: AppLink) {
        switch link {
        case .catalog(let page): catalog.perform(action, page)
        case .deals(let page): deals.perform(action, page)
        case .cart(let page): cart.perform(action, page)
        case .account(let page): account.perform(action, page)
        case .login(let page): login.perform(action, page)
        case .membership(let page): membership.perform(action, page)
        case .payment(let page): payment.perform(action, page)
        case .onboarding(let page): onboarding.perform(action, page)
        }
    }
}
