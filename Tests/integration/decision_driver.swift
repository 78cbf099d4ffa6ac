// Compiled with the Swift that `notifyctl codegen swift` generates (AppLink.swift), for the decision agreement tests
// (Tests/integration/test_codegen_decisions.py, Tests/NotifyctlTests/CodegenDecisionTests.swift).
//
// Reads decisions, one JSON object per line of the file named by the first argument, decodes each with the generated
// `NotifydDecision`, applies it to a navigator that records every call, and prints, tab-separated:
//
//     decision  OUTCOME  PAGE  PATH  PENDING      the page and the pending page by their descriptions, `-` for none;
//                                                 PATH the coordinators space-separated; PENDING `PAGE GATE CONDITION
//                                                 EXPIRES-AT-MS`
//     step      DESCRIPTION                       one per call the navigator received, in order
//     differs   …                                 when the calls are not the decision's steps one for one
//     error     DESCRIPTION                       a NotifydDecisionError
//     failed    DESCRIPTION                       any other error
import Foundation

/// Records each call as the step it performs.
final class Recorder: NotifydNavigator {
    var steps: [NotifydStep] = []

    func start(_ coordinator: NotifydCoordinator, in parent: NotifydCoordinator) {
        steps.append(.start(coordinator, in: parent))
    }
    func activate(_ coordinator: NotifydCoordinator) { steps.append(.activate(coordinator)) }
    func selectTab(_ tab: NotifydCoordinator, in coordinator: NotifydCoordinator) {
        steps.append(.selectTab(coordinator, tab: tab))
    }
    func present(_ coordinator: NotifydCoordinator, over parent: NotifydCoordinator) {
        steps.append(.present(coordinator, over: parent))
    }
    func dismiss(_ coordinator: NotifydCoordinator) { steps.append(.dismiss(coordinator)) }
    func popTo(_ page: AppLink, in coordinator: NotifydCoordinator) { steps.append(.popTo(page, in: coordinator)) }
    func push(_ page: AppLink, in coordinator: NotifydCoordinator) { steps.append(.push(page, in: coordinator)) }
    func setRoot(_ page: AppLink, in coordinator: NotifydCoordinator) { steps.append(.setRoot(page, in: coordinator)) }
    func display(_ page: AppLink, in coordinator: NotifydCoordinator) { steps.append(.display(page, in: coordinator)) }
}

let text = (try? String(contentsOfFile: CommandLine.arguments[1], encoding: .utf8)) ?? ""
var output = ""
for line in text.split(separator: "\n") {
    do {
        let decision = try NotifydDecision(json: Data(line.utf8))
        let recorder = Recorder()
        decision.apply(to: recorder)
        var pending = "-"
        if let waiting = decision.pending {
            let milliseconds = Int((waiting.expiresAt.timeIntervalSince1970 * 1000).rounded())
            pending = "\(waiting.page) \(waiting.gate) \(waiting.condition) \(milliseconds)"
        }
        let page = decision.page.map { "\($0)" } ?? "-"
        let path = decision.path.map(\.description).joined(separator: " ")
        output += ["decision", decision.outcome.rawValue, page, path, pending].joined(separator: "\t") + "\n"
        for step in recorder.steps { output += "step\t\(step)\n" }
        if recorder.steps != decision.steps { output += "differs\t\(recorder.steps) \(decision.steps)\n" }
    } catch let error as NotifydDecisionError {
        output += "error\t\(error)\n"
    } catch {
        output += "failed\t\(error)\n"
    }
}
FileHandle.standardOutput.write(Data(output.utf8))
