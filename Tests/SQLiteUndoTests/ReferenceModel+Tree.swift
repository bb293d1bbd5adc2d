/// The history tree in the reference model: where a step is, how `go(to:)` reaches it, and
/// which state `back(inTime:)` and `forward(inTime:)` go to. Steps are named by action id.
extension ReferenceModel {
    enum Route: Equatable {
        /// On the undo list (or the start, nil): undo down to it.
        case undo
        /// On the redo list: redo up to it.
        case redo
        /// Kept: go to `fork` (on a list, or the start), make `path` (the step first) the redo
        /// list, and redo down to the step.
        case branch(fork: Int?, path: [Int])
    }

    /// How a stack reaches the action `target` (nil: the start), or nil when it has no such step.
    func route(to target: Int?, on stack: String) -> Route? {
        guard let target else { return .undo }
        let undone = undo[stack, default: []].filter { !$0.isOpen }
        if undone.contains(where: { $0.actionID == target }) { return .undo }
        if redo[stack, default: []].contains(where: { $0.actionID == target }) { return .redo }
        let steps = kept[stack, default: []]
        guard var step = steps.last(where: { $0.actionID == target }) else { return nil }
        var path = [step.actionID]
        while let above = steps.last(where: { $0.actionID == step.parent }) {
            path.append(above.actionID)
            step = above
        }
        let onLists = (undo[stack, default: []] + redo[stack, default: []]).contains {
            $0.actionID == step.parent
        }
        return .branch(fork: onLists ? step.parent : nil, path: path)
    }

    /// Gives the steps of `stack` done on `record` (leaving history) the step it was done on.
    mutating func repointChildren(of record: BarrierRecord, on stack: String) {
        for list in [\Self.undo, \Self.redo, \Self.kept] {
            for index in self[keyPath: list][stack, default: []].indices
            where self[keyPath: list][stack]?[index].parent == record.actionID {
                self[keyPath: list][stack]?[index].parent = record.parent
            }
        }
    }

    /// Makes the kept steps `path` (the deepest first) the redo list, keeping the redo list as
    /// a branch.
    mutating func makeRedo(_ path: [Int], on stack: String) {
        let steps = kept[stack, default: []]
        let branch = path.compactMap { action in steps.last { $0.actionID == action } }
        kept[stack] = (steps.filter { !path.contains($0.actionID) } + redo[stack, default: []])
            .sorted { $0.isDone(before: $1) }
        redo[stack] = branch
    }

    /// A step's place in a stack's history, counted from the newest (`UndoHistory`'s order).
    struct Place: CustomStringConvertible {
        enum List { case undo, redo, kept }
        var list: List
        var index: Int
        var description: String { "\(list) \(index)" }
    }

    /// The step at `place`.
    func step(at place: Place, on stack: String) -> BarrierRecord? {
        let steps =
            switch place.list {
            case .undo: undo[stack, default: []].filter { !$0.isOpen }
            case .redo: redo[stack, default: []]
            case .kept: kept[stack, default: []]
            }
        let index = steps.count - 1 - place.index
        return steps.indices.contains(index) ? steps[index] : nil
    }

    enum Destination: Equatable {
        case stay
        case start
        case step(Int)
    }

    /// The state `count` steps from a stack's current one, in the order steps were done.
    func destination(_ count: Int, forward: Bool, on stack: String) -> Destination {
        let registered = undo[stack, default: []].filter { !$0.isOpen }
        let all = (registered + redo[stack, default: []] + kept[stack, default: []])
            .sorted { $0.isDone(before: $1) }
        let current = registered.last
        var index = current.flatMap { now in all.firstIndex { $0.id == now.id } } ?? -1
        index += forward ? count : -count
        if forward, index >= all.count { index = all.count - 1 }
        guard index >= 0 else { return current == nil ? .stay : .start }
        let step = all[index]
        return step.id == current?.id ? .stay : .step(step.actionID)
    }
}
