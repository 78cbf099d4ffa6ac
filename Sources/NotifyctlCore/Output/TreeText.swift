/// A small tree for terminal output: a header line, then labelled rows drawn with box characters, each with
/// optional lines beneath it.
///
/// ```
/// routed  cart.offer(id: "SUMMER")
/// ├─ path      app › main › cart
/// ├─ steps
/// │  1. activate app
/// └─ decision  5f0c7e1e-…
/// ```
struct TreeText {
    /// One labelled row; `value` may be empty when the row only heads its `children`.
    struct Row {
        var label: String
        var value: String
        var children: [String] = []
    }

    var header: String
    var rows: [Row] = []

    init(header: String) {
        self.header = header
    }

    mutating func add(_ label: String, _ value: String, children: [String] = []) {
        rows.append(Row(label: label, value: value, children: children))
    }

    /// The tree as lines, each ending in a newline.
    func render(style: Style) -> String {
        let width = rows.filter { !$0.value.isEmpty }.map(\.label.count).max() ?? 0
        var out = header + "\n"
        for (index, row) in rows.enumerated() {
            let isLast = index == rows.count - 1
            out += style.dim(isLast ? "└─ " : "├─ ")
            if row.value.isEmpty {
                out += row.label + "\n"
            } else {
                let padding = String(repeating: " ", count: max(0, width - row.label.count) + 2)
                out += row.label + padding + row.value + "\n"
            }
            let stem = isLast ? "   " : style.dim("│") + "  "
            for child in row.children { out += stem + child + "\n" }
        }
        return out
    }
}
