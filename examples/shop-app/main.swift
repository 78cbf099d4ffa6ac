// The shop app of config/shop.yaml following notifyd's decisions. Each line of standard input is a decision as
// `notifyctl --json monitor` prints them (one JSON object a line): the app decodes it with the generated
// `NotifydDecision` and applies its steps to its coordinators, which print what they do (docs/codegen.md).
//
//     bash examples/shop-app/build.sh                          # .build/shop-app/shop-app
//     notifyctl --json monitor | .build/shop-app/shop-app      # then send notifications from another terminal
import Foundation

let app = AppCoordinator()
while let line = readLine() {
    guard !line.isEmpty else { continue }
    do {
        let decision = try NotifydDecision(json: Data(line.utf8))
        let page = decision.page.map { "\($0)" } ?? "no page"
        printLine("\(decision.outcome) \(page)" + (decision.device.map { " on \($0)" } ?? ""))
        decision.apply(to: app)
        if let pending = decision.pending {
            printLine("  \(pending.page) waits until \(pending.gate) provides \(pending.condition)")
        }
    } catch {
        // A config newer than the app names a page this build does not know: the error says which.
        printLine("cannot follow the decision: \(error)")
    }
}
