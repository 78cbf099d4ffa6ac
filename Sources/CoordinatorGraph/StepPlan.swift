import DeepLink
import JSON

/// A decision's steps as the resolver made them: each step a few indices, named only when it is read as a
/// ``Step``, and written into the decision's text from names the resolver escaped once (as is its path, kept as
/// indices beside the plan, see ``Decision/path``).
///
/// The resolver's walk appends an entry per step (no strings copied, no ``Step`` built); the decision keeps the
/// plan, and ``Decision/steps`` names it when asked. Writing a decision (``Decision/writeJSON(into:)``) writes the
/// plan's steps as the named steps would be written, byte for byte.
struct StepPlan: Sendable {
    /// One step: its action, its coordinator and the child or parent it involves by index (-1: none), and its
    /// page.
    struct Entry: Sendable {
        let action: Step.Action
        /// The coordinator acted on.
        let coordinator: Int32
        /// The tab selected (`selectTab`).
        let child: Int32
        /// The coordinator started or presented under (`start`, `present`).
        let parent: Int32
        /// The page (page steps).
        let page: Page?
    }

    /// The steps in order.
    var entries: [Entry] = []
    /// Names past the graph's coordinators, as the walk's state ended (see ``NavigationState/foreign``).
    var foreign: [String] = []
    /// The resolver whose graph the indices are of (`nil` until the walk ends).
    var resolver: Resolver?

    /// Appends a step.
    mutating func append(_ action: Step.Action, _ coordinator: Int, child: Int?, parent: Int?, page: Page?) {
        entries.append(
            Entry(
                action: action, coordinator: Int32(truncatingIfNeeded: coordinator),
                child: Int32(truncatingIfNeeded: child ?? -1), parent: Int32(truncatingIfNeeded: parent ?? -1),
                page: page))
    }

    /// The plan of a finished walk: its steps, named by `resolver` and by the walk's foreign names.
    consuming func finished(by resolver: Resolver, foreign: [String]) -> StepPlan {
        self.resolver = resolver
        self.foreign = foreign
        return self
    }

    /// The name of the coordinator at `index`.
    func name(_ index: Int32, in resolver: Resolver) -> String {
        resolver.name(Int(index), foreign: foreign)
    }

    /// The steps, named.
    var steps: [Step] {
        guard let resolver else { preconditionFailure("a plan is read once its walk has ended") }
        var steps: [Step] = []
        steps.reserveCapacity(entries.count)
        for entry in entries {
            steps.append(
                Step(
                    entry.action, name(entry.coordinator, in: resolver),
                    child: entry.child < 0 ? nil : name(entry.child, in: resolver),
                    parent: entry.parent < 0 ? nil : name(entry.parent, in: resolver),
                    pageValue: entry.page))
        }
        return steps
    }

    /// The names of `path`, coordinators of the walk, in order.
    func names(of path: IndexList) -> [String] {
        guard let resolver else { preconditionFailure("a plan is read once its walk has ended") }
        var names: [String] = []
        names.reserveCapacity(path.count)
        Self.forEachName(of: path, resolver: resolver, foreign: foreign) { names.append($0) }
        return names
    }

    /// Calls `body` with the name of each coordinator of `path`, in order, without building an array of them: `path`
    /// of a plan made by `resolver` whose walk ended with the names `foreign`.
    static func forEachName(
        of path: IndexList, resolver: Resolver, foreign: [String], _ body: (String) -> Void
    ) {
        resolver.names.withUnsafeBufferPointer { names in  // each name borrowed, not copied out of the array
            for i in 0..<path.count {
                let index = path[i]
                if index < names.count { body(names[index]) } else { body(foreign[index - names.count]) }
            }
        }
    }

    /// Appends `path`, coordinators of the walk, as a JSON array of their names (what `JSON.writeString` writes of
    /// each), from the names the resolver escaped once.
    func writeJSON(path: IndexList, into out: inout ByteWriter) {
        guard let resolver else { preconditionFailure("a plan is written once its walk has ended") }
        out.append(UInt8(ascii: "["))
        for i in 0..<path.count {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "\""))
            writeName(Int32(truncatingIfNeeded: path[i]), resolver: resolver, into: &out)
            out.append(UInt8(ascii: "\""))
        }
        out.append(UInt8(ascii: "]"))
    }

    /// True when the first step is `activate` of the coordinator at `index`.
    func startsByActivating(_ index: Int) -> Bool {
        guard let first = entries.first else { return false }
        return first.action == .activate && Int(first.coordinator) == index
    }

    /// Appends the steps as a JSON array's elements (``Step/writeJSON(into:)`` of each named step, comma-separated).
    ///
    /// With `described`, a page already written in `out` and where its description is: a step of that page copies
    /// the description from there.
    func writeJSON(into out: inout ByteWriter, described: (page: Page, text: Range<Int>)? = nil) {
        guard let resolver else { preconditionFailure("a plan is written once its walk has ended") }
        // Entries borrowed in place, not copied out of their array.
        entries.withUnsafeBufferPointer { entries in
            write(entries, resolver: resolver, described: described, into: &out)
        }
    }

    private func write(
        _ entries: UnsafeBufferPointer<Entry>, resolver: Resolver, described: (page: Page, text: Range<Int>)?,
        into out: inout ByteWriter
    ) {
        for i in entries.indices {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(entries[i].action.jsonHead)
            writeName(entries[i].coordinator, resolver: resolver, into: &out)
            out.append(UInt8(ascii: "\""))
            if entries[i].child >= 0 {
                out.append(#","child":""#)
                writeName(entries[i].child, resolver: resolver, into: &out)
                out.append(UInt8(ascii: "\""))
            }
            if entries[i].parent >= 0 {
                out.append(#","parent":""#)
                writeName(entries[i].parent, resolver: resolver, into: &out)
                out.append(UInt8(ascii: "\""))
            }
            if let page = entries[i].page {
                out.append(#","page":"#)
                if let described, described.page == page {
                    out.appendCopy(of: described.text)
                } else {
                    page.writeDescriptionJSONString(into: &out)
                }
                page.writeStepMembers(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Appends the name of the coordinator at `index`, escaped as in a JSON string: the resolver's text for the
    /// graph's coordinators, escaped once when it was built.
    @inline(__always)
    private func writeName(_ index: Int32, resolver: Resolver, into out: inout ByteWriter) {
        let i = Int(index)
        guard i < resolver.names.count else {
            JSON.writeStringContents(foreign[i - resolver.names.count], into: &out)
            return
        }
        resolver.escapedNames.write(i, into: &out)
    }
}

/// Texts by index, kept end to end in one buffer: the coordinators' names escaped as in a JSON string.
struct EscapedTexts: Sendable {
    private let bytes: [UInt8]
    /// Where each text starts in ``bytes``, then where the last one ends.
    private let bounds: [Int]

    /// Each of `texts` escaped as the contents of a JSON string.
    init(_ texts: [String]) {
        var out = ByteWriter(capacity: texts.count * 16)
        var bounds = [0]
        for text in texts {
            JSON.writeStringContents(text, into: &out)
            bounds.append(out.count)
        }
        self.bytes = out.finish()
        self.bounds = bounds
    }

    /// Appends the text at `index`.
    @inline(__always)
    func write(_ index: Int, into out: inout ByteWriter) {
        bytes.withUnsafeBufferPointer { bytes in
            bounds.withUnsafeBufferPointer { bounds in
                let start = bounds[index]
                let count = bounds[index + 1] - start
                guard count > 0, let base = bytes.baseAddress else { return }
                out.append(base + start, count: count)
            }
        }
    }
}
