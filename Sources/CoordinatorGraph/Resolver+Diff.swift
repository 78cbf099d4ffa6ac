import DeepLink

extension Resolver {
    /// How many coordinators at the start of `path` are already visible, in order, on the device. Inlined: called
    /// with a walk's state, a call that is not copies the whole state to pass it.
    @inline(__always)
    func visiblePrefix(of path: IndexList, state: NavigationState) -> Int {
        var k = 0
        while k < path.count, k < state.path.count, state.path[k] == path[k] { k += 1 }
        return k
    }

    /// Steps 2–3 of the grammar: dismisses the presented coordinators in the way, then enters `path[..<end]`
    /// (selecting tabs, presenting, reusing or starting). A coordinator entered before the page's owner that shows
    /// pages and has none gets its root page. With `toFront`, a coordinator at `end - 1` that is visible under other
    /// (non-presented) coordinators is activated so that it becomes the top.
    ///
    /// A modal or flow that does not declare `parents`, entered where the visible path leaves the page's path, is
    /// presented over the current top (as a gate's provider is) instead of cutting the visible path above its parent,
    /// so that dismissing it shows again what was under it; when it is already presented there, it is reused.
    func navigate(_ path: IndexList, upTo end: Int, toFront: Bool, walk: inout Walk) {
        let k = visiblePrefix(of: path, state: walk.state)
        if walk.trace != nil {
            for i in 1..<max(1, min(k, end)) { walk.note("\(names[path[i]]): visible, kept") }
        }
        var i = max(k, 1)
        if i < end, kinds[path[i]].isPresented, !declaresParents[path[i]], walk.state.path.count > i {
            enterOverTop(path[i], walk: &walk)
            if i < path.count - 1 { showRootPage(of: path[i], walk: &walk) }
            i += 1
        } else {
            dismissPresented(downTo: k, walk: &walk)
        }
        while i < end {
            enter(path[i], parent: path[i - 1], walk: &walk)
            if i < path.count - 1 { showRootPage(of: path[i], walk: &walk) }
            i += 1
        }
        if toFront, k >= end, end > 1, walk.state.path.count > end {
            let above = name(walk.state.path[end], in: walk.state)
            walk.note("\(names[path[end - 1]]): visible under \(above), brought to the front")
            walk.emit(.activate, path[end - 1], resolver: self)
        }
    }

    /// Presents `modal` over the top of the visible path, or, when it is presented there already, dismisses what is
    /// presented above it (and activates it when something else is still above it).
    func enterOverTop(_ modal: Int, walk: inout Walk) {
        walk.visits += 1
        if let j = walk.state.path.lastIndex(of: modal) {
            walk.note("\(names[modal]) is already presented: reuse it")
            dismissPresented(downTo: j + 1, walk: &walk)
            if walk.state.path.count > j + 1 { walk.emit(.activate, modal, resolver: self) }
            return
        }
        let top = walk.state.top ?? rootIndex
        if walk.trace != nil {  // the top's name only for the trace (it reads the walk's state)
            let topName = self.name(top, in: walk.state)
            walk.note(
                "present \(names[modal]) over the current top \(topName): it is a \(kinds[modal]) without declared parents"
            )
        }
        walk.emit(.present, modal, parent: top, resolver: self)
    }

    /// Gives a coordinator on the way to the page its root page when it shows pages and has none: a coordinator
    /// that is started shows something. A root page that needs arguments (the validator rejects it) is left out.
    func showRootPage(of coordinator: Int, walk: inout Walk) {
        guard kinds[coordinator] != .app, kinds[coordinator] != .tabs, walk.state.stack(of: coordinator) == nil else {
            return
        }
        guard let root = rootPages[coordinator] else {
            if let definition = rootDefinitions[coordinator] {
                walk.note("root page \(definition.id) of \(names[coordinator]) needs arguments: left out")
            }
            return
        }
        walk.note("\(names[coordinator]) is on the way to the page: it shows its root page \(root)")
        walk.emit(
            .setRoot, coordinator, page: root, resolver: self)
    }

    /// Dismisses, top-most first, the presented coordinators of the visible path at index `index` or above.
    func dismissPresented(downTo index: Int, walk: inout Walk) {
        var i = walk.state.path.count - 1
        while i >= index, i >= 0 {
            walk.visits += 1
            if i < walk.state.path.count {
                let coordinator = walk.state.path[i]
                if isPresented(coordinator) {
                    walk.note("dismiss \(names[coordinator]): presented over the way to the page")
                    walk.emit(.dismiss, coordinator, resolver: self)
                }
            }
            i -= 1
        }
    }

    /// Enters `child` under `parent`: `selectTab` when needed, then `present`, `activate` or `start`.
    func enter(_ child: Int, parent: Int, walk: inout Walk) {
        walk.visits += 1
        // The names are looked up inside the trace's lines, built only when explaining: no string retained otherwise.
        if kinds[parent] == .tabs {
            let previous = walk.state.selectedTab(of: parent)
            if previous != child {
                let was = walk.trace == nil ? nil : previous.map { name($0, in: walk.state) }
                walk.note("select tab \(names[child]) of \(names[parent])" + (was.map { " (was \($0))" } ?? ""))
                walk.emit(.selectTab, parent, child: child, resolver: self)
            }
        }
        if kinds[child].isPresented {
            walk.note("present \(names[child]) over \(names[parent]): it is a \(kinds[child])")
            walk.emit(.present, child, parent: parent, resolver: self)
        } else if walk.state.isStarted(child) {
            walk.note("reuse \(names[child]): started, not visible")
            walk.emit(.activate, child, resolver: self)
        } else {
            walk.note("start \(names[child]) in \(names[parent]): not started")
            walk.emit(.start, child, parent: parent, resolver: self)
        }
    }

    /// Step 4 of the grammar: brings the owner's stack to just below `page` (the `display` that follows shows it).
    /// The owner's root page goes beneath an empty stack only on a cold start.
    func arrangeStack(of owner: Int, for page: Page, definition: PageDefinition, coldStart: Bool, walk: inout Walk) {
        let stack = walk.state.stack(of: owner) ?? []
        func emit(_ action: Step.Action, _ page: Page, _ definition: PageDefinition) {
            walk.emit(action, owner, page: page, resolver: self)
        }
        if let j = stack.lastIndex(of: page) {
            if j != stack.count - 1 {
                walk.note("\(page) is already in the stack of \(names[owner]): pop to it")
                emit(.popTo, page, definition)
            } else {
                walk.note("\(page) is already the top of \(names[owner])")
            }
            return
        }
        let chain = backChain(of: page, definition: definition, walk: &walk)
        if stack.isEmpty {
            // The stack from the bottom: the root page (cold start only), then the back chain, farthest first.
            var root: (page: Page, definition: PageDefinition)?
            if coldStart, let rootDefinition = rootDefinitions[owner], rootDefinition.id != page.id,
                !chain.contains(where: { $0.page.id == rootDefinition.id })
            {
                if rootDefinition.declaration.parameters.isEmpty, let page = rootPages[owner] {
                    root = (page, rootDefinition)
                } else if let page = graph.page(rootDefinition, argumentsFrom: page) {
                    root = (page, rootDefinition)
                } else {
                    walk.note(
                        "root page \(rootDefinition.id) of \(names[owner]) needs arguments \(page) lacks: omitted")
                }
            }
            guard root != nil || !chain.isEmpty else { return }
            walk.note(
                "back stack of \(page) synthesized: "
                    + ((root.map { [$0.page] } ?? []) + chain.reversed().map(\.page)).map(\.description)
                    .joined(separator: " ← "))
            // Emitted as they come, without gathering them into an array first (one allocation per decision).
            var action = Step.Action.setRoot
            if let root {
                emit(action, root.page, root.definition)
                action = .push
            }
            for below in chain.reversed() {
                emit(action, below.page, below.definition)
                action = .push
            }
            return
        }
        if let nearest = chain.firstIndex(where: { stack.contains($0.page) }) {
            let anchor = chain[nearest]
            if stack.last != anchor.page {
                walk.note("\(anchor.page) (back of \(page)) is in the stack of \(names[owner]): pop to it")
                emit(.popTo, anchor.page, anchor.definition)
            }
            for below in chain[..<nearest].reversed() {
                emit(.push, below.page, below.definition)
            }
        } else if !chain.isEmpty {
            walk.note("back pages of \(page) are not in the stack of \(names[owner]): push them")
            for below in chain.reversed() { emit(.push, below.page, below.definition) }
        }
    }

    /// The pages beneath `page` by `back`, nearest first, arguments taken from `page` by label, with their
    /// definitions.
    func backChain(
        of page: Page, definition: PageDefinition, walk: inout Walk
    ) -> [(page: Page, definition: PageDefinition)] {
        var chain: [(page: Page, definition: PageDefinition)] = []
        var current = definition
        while let backName = current.back {
            let id = PageID(coordinator: page.id.coordinator, name: backName)
            walk.visits += 1
            guard let below = pageEntry(id)?.definition, id != page.id, !chain.contains(where: { $0.page.id == id })
            else {
                break
            }
            let value: Page
            if below.declaration.parameters.isEmpty {
                value = Page(id: below.id)
            } else if let converted = graph.page(below, argumentsFrom: page) {
                value = converted
            } else {
                walk.note("back page \(id) needs arguments \(page) lacks: the back stack stops there")
                break
            }
            chain.append((value, below))
            current = below
        }
        return chain
    }
}
