import CoordinatorGraph

extension SwiftGenerator {
    /// The decision part of the file: `NotifydCoordinator` (every coordinator), `NotifydStep`, the navigator
    /// protocol an app implements with one requirement per action, and `NotifydDecision`, which reads notifyd's
    /// decision JSON into those types (pages through `AppLink(id:arguments:)`) and applies its steps in order.
    ///
    /// What it reads is the contract of docs/design.md §3; its step descriptions are `notifyctl`'s step lines
    /// (``DecisionPrinter/step(_:)``). The decision agreement tests hold both to the daemon's output.
    func decisions() throws(CodegenError) -> String {
        for coordinator in graph.coordinators { try checkCoordinatorName(coordinator.name) }
        return "// MARK: - Decisions\n\n" + coordinatorEnum() + "\n" + Self.decisionTypes(access: access) + "\n"
            + Self.decisionDecoding(access: access)
    }

    /// `enum NotifydCoordinator`: a case per coordinator, named by the config's name.
    ///
    /// Not `String`-backed: a coordinator named `RawValue` would then break the enum.
    func coordinatorEnum() -> String {
        let a = access
        var out = """
            /// A coordinator of the app, as notifyd's decisions name it (in `path`, in steps, as a gate).
            \(a)enum NotifydCoordinator: CaseIterable, Hashable, Sendable, CustomStringConvertible {

            """
        var names = ""
        var cases = ""
        for coordinator in graph.coordinators {
            let name = SwiftNames.identifier(coordinator.name)
            let literal = SwiftNames.stringLiteral(coordinator.name)
            out += "    /// `\(SwiftNames.comment(coordinator.name))` (\(coordinator.kind.rawValue)).\n"
            out += "    case \(name)\n"
            cases += "        case \(literal): self = .\(name)\n"
            names += "        case .\(name): return \(literal)\n"
        }
        out += """

                /// The coordinator named `name` in the config; nil for a name this code does not declare.
                \(a)init?(name: String) {
                    switch name {

            """
        out += cases
        out += """
                    default: return nil
                    }
                }

                /// The coordinator's name in the config, as notifyd and `notifyctl` write it.
                \(a)var description: String {
                    switch self {

            """
        out += names
        out += """
                    }
                }
            }

            """
        return out
    }

    /// `NotifydStep`, the navigator protocol and `NotifydDecision`: the same for every config.
    ///
    /// `NotifydStep.description` is ``DecisionPrinter/step(_:)`` without colours, and its `printable` escapes control
    /// characters as `SafeText.clean` does there: the app's step lines and `notifyctl`'s are the same text.
    static func decisionTypes(access a: String) -> String {
        #"""
        /// One step of a notifyd decision for the app's coordinators; `NotifydDecision.apply(to:)` performs a
        /// decision's steps in order.
        \#(a)enum NotifydStep: Hashable, Sendable, CustomStringConvertible {
            /// Create and start a coordinator as a child of another: `start cart in main`.
            case start(NotifydCoordinator, in: NotifydCoordinator)
            /// Bring a coordinator that is started already to the front: `activate app`.
            case activate(NotifydCoordinator)
            /// Select a tab of a tabs coordinator: `selectTab main → cart`.
            case selectTab(NotifydCoordinator, tab: NotifydCoordinator)
            /// Present a modal or a flow over a coordinator: `present login over cart`.
            case present(NotifydCoordinator, over: NotifydCoordinator)
            /// Dismiss a presented coordinator, which stops: `dismiss login`.
            case dismiss(NotifydCoordinator)
            /// Pop a coordinator's stack down to a page, which stays: `popTo cart.cart in cart`.
            case popTo(AppLink, in: NotifydCoordinator)
            /// Push a page on a coordinator's stack: `push cart.checkout in cart`.
            case push(AppLink, in: NotifydCoordinator)
            /// Replace a coordinator's stack by one page: `setRoot cart.cart in cart`.
            case setRoot(AppLink, in: NotifydCoordinator)
            /// Show a page on a coordinator, pushed unless it is the top already:
            /// `display cart.offer(id: "SUMMER") in cart`.
            case display(AppLink, in: NotifydCoordinator)

            /// The step as `notifyctl` prints it in a decision's step list: `selectTab main → cart`,
            /// `display cart.offer(id: "SUMMER") in cart`.
            \#(a)var description: String {
                let text: String
                switch self {
                case .start(let coordinator, let parent): text = "start \(coordinator) in \(parent)"
                case .activate(let coordinator): text = "activate \(coordinator)"
                case .selectTab(let coordinator, let tab): text = "selectTab \(coordinator) → \(tab)"
                case .present(let coordinator, let parent): text = "present \(coordinator) over \(parent)"
                case .dismiss(let coordinator): text = "dismiss \(coordinator)"
                case .popTo(let page, let coordinator): text = "popTo \(page) in \(coordinator)"
                case .push(let page, let coordinator): text = "push \(page) in \(coordinator)"
                case .setRoot(let page, let coordinator): text = "setRoot \(page) in \(coordinator)"
                case .display(let page, let coordinator): text = "display \(page) in \(coordinator)"
                }
                return NotifydStep.printable(text)
            }

            /// Performs the step: calls the navigator's requirement of the same name.
            @Swift.MainActor \#(a)func apply(to navigator: some NotifydNavigator) {
                switch self {
                case .start(let coordinator, let parent): navigator.start(coordinator, in: parent)
                case .activate(let coordinator): navigator.activate(coordinator)
                case .selectTab(let coordinator, let tab): navigator.selectTab(tab, in: coordinator)
                case .present(let coordinator, let parent): navigator.present(coordinator, over: parent)
                case .dismiss(let coordinator): navigator.dismiss(coordinator)
                case .popTo(let page, let coordinator): navigator.popTo(page, in: coordinator)
                case .push(let page, let coordinator): navigator.push(page, in: coordinator)
                case .setRoot(let page, let coordinator): navigator.setRoot(page, in: coordinator)
                case .display(let page, let coordinator): navigator.display(page, in: coordinator)
                }
            }

            /// `text` with control characters written `\u{…}`, as `notifyctl` prints text it did not write itself.
            fileprivate static func printable(_ text: String) -> String {
                func isControl(_ scalar: Swift.Unicode.Scalar) -> Bool {
                    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                }
                guard text.unicodeScalars.contains(where: isControl) else { return text }
                var out = ""
                for scalar in text.unicodeScalars {
                    if isControl(scalar) {
                        out += "\\u{" + String(scalar.value, radix: 16) + "}"
                    } else {
                        out.unicodeScalars.append(scalar)
                    }
                }
                return out
            }
        }

        /// What the app does for each step of a decision: implement it on the app's coordinators (the compiler lists
        /// the requirements still missing) and call `NotifydDecision.apply(to:)`. Navigation happens on the main actor.
        @Swift.MainActor \#(a)protocol NotifydNavigator {
            /// Creates and starts `coordinator` as a child of `parent`.
            func start(_ coordinator: NotifydCoordinator, in parent: NotifydCoordinator)
            /// Brings `coordinator`, started already, to the front.
            func activate(_ coordinator: NotifydCoordinator)
            /// Selects the tab `tab` of the tabs coordinator `coordinator`.
            func selectTab(_ tab: NotifydCoordinator, in coordinator: NotifydCoordinator)
            /// Presents the modal or flow `coordinator` over `parent`.
            func present(_ coordinator: NotifydCoordinator, over parent: NotifydCoordinator)
            /// Dismisses the presented `coordinator`; it stops.
            func dismiss(_ coordinator: NotifydCoordinator)
            /// Pops the stack of `coordinator` down to `page`, which stays.
            func popTo(_ page: AppLink, in coordinator: NotifydCoordinator)
            /// Pushes `page` on the stack of `coordinator`.
            func push(_ page: AppLink, in coordinator: NotifydCoordinator)
            /// Replaces the stack of `coordinator` by `page` alone.
            func setRoot(_ page: AppLink, in coordinator: NotifydCoordinator)
            /// Shows `page` on `coordinator`: pushed, unless it is the top already.
            func display(_ page: AppLink, in coordinator: NotifydCoordinator)
        }

        /// A routing decision of notifyd, read from its JSON (docs/design.md §3: the reply of `Route` and `Resolve`,
        /// `FlowFinished`'s `resumed`, what `Monitor` streams and `notifyctl --json` prints), its pages and
        /// coordinators typed with this app's.
        ///
        /// A decision naming a page, a coordinator, an outcome or an action this code does not declare (notifyd runs
        /// a newer config than the one the code was generated from) does not decode: the ``NotifydDecisionError``
        /// names it and where it is.
        \#(a)struct NotifydDecision: Hashable, Sendable {
            /// How the page was reached.
            \#(a)enum Outcome: String, CaseIterable, Hashable, Sendable {
                /// A link routed to its page.
                case routed
                /// A flow that provides a condition is presented first; `pending` holds the page that waits.
                case gated
                /// No pattern matched: the app's fallback page.
                case fallback
                /// A pending page continued after its gate finished.
                case resumed
                /// A notification without a usable link: the app comes forward where it is (no page).
                case opened
                /// Nothing to show: no page, no steps, no state change.
                case silent
            }

            /// A page kept behind a gate until the flow that provides its condition finishes.
            \#(a)struct Pending: Hashable, Sendable {
                /// The page to open once the gate finishes.
                \#(a)let page: AppLink
                /// The flow presented for the condition.
                \#(a)let gate: NotifydCoordinator
                /// The condition the gate provides (`session`).
                \#(a)let condition: String
                /// When notifyd drops the pending page.
                \#(a)let expiresAt: Foundation.Date
            }

            /// The decision's id, a UUID.
            \#(a)let id: String
            /// The device the decision was made for; nil without one.
            \#(a)let device: String?
            /// How the page was reached.
            \#(a)let outcome: Outcome
            /// The page the decision leads to (when `gated`, the page that waits); nil when `opened` or `silent`.
            \#(a)let page: AppLink?
            /// The coordinators from the root to the page's owner.
            \#(a)let path: [NotifydCoordinator]
            /// The steps, in the order the app performs them.
            \#(a)let steps: [NotifydStep]
            /// The page kept behind a gate (`gated` only).
            \#(a)let pending: Pending?

            /// Performs the steps on `navigator`, in order.
            @Swift.MainActor \#(a)func apply(to navigator: some NotifydNavigator) {
                for step in steps { step.apply(to: navigator) }
            }
        }

        /// A decision this app cannot follow, and where in its JSON (`$.steps[5].pageId`).
        \#(a)enum NotifydDecisionError: Swift.Error, Hashable, Sendable, CustomStringConvertible {
            /// A page id the generated code does not declare.
            case unknownPage(String, path: String)
            /// The arguments of a page do not fit its parameters as the generated code declares them.
            case argumentsDoNotFit(page: String, path: String)
            /// A coordinator the generated code does not declare.
            case unknownCoordinator(String, path: String)
            /// An outcome the generated code does not know.
            case unknownOutcome(String, path: String)
            /// A step's action the generated code does not know.
            case unknownAction(String, path: String)
            /// A step's page given only by its description: the decision comes from a notifyd older than the code.
            case pageWithoutID(String, path: String)

            /// `path: what is wrong`, and what to do about it.
            \#(a)var description: String {
                let newer = "notifyd runs a config newer than the one this code was generated from: generate it again"
                let newerDaemon = "notifyd is newer than the notifyctl that generated this code: generate it again"
                switch self {
                case .unknownPage(let id, let path):
                    return "\(path): unknown page '\(id)'; \(newer)"
                case .argumentsDoNotFit(let id, let path):
                    return "\(path): the arguments do not fit the parameters of page '\(id)'; \(newer)"
                case .unknownCoordinator(let name, let path):
                    return "\(path): unknown coordinator '\(name)'; \(newer)"
                case .unknownOutcome(let outcome, let path):
                    let known = NotifydDecision.Outcome.allCases.map(\.rawValue).joined(separator: ", ")
                    return "\(path): unknown outcome '\(outcome)' (this code knows \(known)); \(newerDaemon)"
                case .unknownAction(let action, let path):
                    return "\(path): unknown action '\(action)' (this code knows start, activate, selectTab, present, "
                        + "dismiss, popTo, push, setRoot and display); \(newerDaemon)"
                case .pageWithoutID(let description, let path):
                    return "\(path): the step's page '\(description)' comes without its 'pageId' and 'arguments': "
                        + "the decision was made by a notifyd older than this code"
                }
            }
        }

        """#
    }
}
