import SQLiteDatabase

/// A filed barrier (registered, or its block still running) as a stack lists it.
struct StackEntry: Sendable, Equatable {
    let id: Int64
    let name: String
    let coalescingKey: String?
    var position: Int64
    var closedAt: Double
    /// Whether the log reads inverted (the barrier was undone, or redone, by flipping it).
    var inverted = false
    /// The bytes its log keeps (`UndoLogSchema.logBytes`), once a byte budget needed them; nil
    /// until then, and after a barrier merged into it.
    var bytes: Int?
    /// The id and time of the step of the history it is, when it took the place of an earlier
    /// entry (the inverse of a replay); nil for an action's first entry (its own).
    var step: Int64?
    var stepAt: Double?
    /// The step it was done on (`stepID` of the entry below it when it was filed), nil for a
    /// step done on the history's start: the history is a tree.
    var parent: Int64?
    /// For a take-back (`UndoStack.revert`), the step it took back.
    var takesBack: Int64?

    /// The step of the history it is: stable across undo and redo (`UndoStep.id`).
    var stepID: Int64 { step ?? id }
    /// When that step was done (registered, or last merged into).
    var stepDate: Double { stepAt ?? closedAt }

    /// Whether its step was done before `other`'s: by time, then by id (a clock that stands
    /// still gives one time to many steps). The order `UndoStack.back(inTime:)` follows.
    func isDone(before other: StackEntry) -> Bool {
        (stepDate, stepID) < (other.stepDate, other.stepID)
    }
}

/// A stack's two lists, oldest first, and its kept steps (branches), in the order they were done,
/// mirrored in memory from `sqliteundo_barriers`.
struct StackEntries: Sendable {
    var undo: [StackEntry] = []
    var redo: [StackEntry] = []
    var kept: [StackEntry] = []

    /// One list, changed in place (a get/set pair would copy the whole list on every change).
    subscript(list: UndoLogSchema.List) -> [StackEntry] {
        get {
            switch list {
            case .undo: undo
            case .redo: redo
            case .kept: kept
            }
        }
        _modify {
            switch list {
            case .undo: yield &undo
            case .redo: yield &redo
            case .kept: yield &kept
            }
        }
    }

    /// Gives the entries done on `removed` (a step leaving history while they stay) the step it
    /// was done on: a branch done on it forks where it did. Reads every entry: for the few
    /// steps that leave from the middle of a history (a replay that restored nothing, a block
    /// that threw), not for a trim.
    mutating func repointChildren(of removed: StackEntry) {
        for list in [UndoLogSchema.List.undo, .redo, .kept] {
            for index in self[list].indices where self[list][index].parent == removed.stepID {
                self[list][index].parent = removed.parent
            }
        }
    }

    /// Removes the entry `id` from `list`, searched for from the top, where undo and redo find
    /// theirs: no cost that grows with the list.
    mutating func remove(_ id: Int64, from list: UndoLogSchema.List) {
        if let index = self[list].lastIndex(where: { $0.id == id }) {
            self[list].remove(at: index)
        }
    }
}
